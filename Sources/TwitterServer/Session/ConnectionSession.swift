import Foundation
import JSONRPC
import Logging
import Synchronization
import TwitterAPI
import TwitterCore

/// The state of one connection: who the kernel says the peer is, and who it has logged in as.
///
/// Requests on one connection run one at a time, but subscriptions read the state from other tasks, so the
/// mutable part sits behind a mutex.
public final class ConnectionSession: Sendable {
    /// A number unique within this run of the daemon, for logs.
    public let id: Int
    /// SO_PEERCRED of the peer, read at accept.
    public let peer: PeerCredentials
    /// Writes a notification line to the connection, after what was written before it.
    private let sendNotification: @Sendable ([UInt8]) -> Void
    private let state = Mutex(State())
    /// Set before the first login resting on an OAuth access token takes effect, never cleared: the scope rule
    /// reads it without a lock, so a connection that never logs in with one pays nothing for it.
    private let everScoped = Atomic<Bool>(false)

    struct State {
        var login = LoginState.anonymous
        /// The registry the login is listed in, so closing or logging out takes it out again.
        var liveLogins: LiveLogins?
        var subscriptions: [Int: any LiveSubscription] = [:]
        /// Ends the login at its `expiresAt` (when it has one), so a connection that only listens is told too.
        var expiryTimer: LoginExpiryTimer?
        var forwardersToStart: [any StreamForwarding] = []
        var nextSubscriptionID = 1
    }

    /// The most live subscriptions one connection may hold.
    static let maximumSubscriptions = 64

    /// Creates the state of a new connection; `sendNotification` writes a line to it (`auth.revoked`).
    public init(
        id: Int, peer: PeerCredentials, sendNotification: @escaping @Sendable ([UInt8]) -> Void = { _ in }
    ) {
        self.id = id
        self.peer = peer
        self.sendNotification = sendNotification
    }

    /// The login of this connection, if it is logged in.
    public var login: SessionLogin? {
        state.withLock { $0.login.current }
    }

    /// The scopes of the login when it rests on an OAuth access token; nil for every other login, or none.
    public var loginScopes: OAuthScopes? {
        guard everScoped.load(ordering: .acquiring) else { return nil }
        return state.withLock { $0.login.current?.scopes }
    }

    /// The login, or the -32001 error saying why there is none. A login whose session or token has expired ends
    /// here, at its first use past `expiresAt`, as a revocation would end it: an open connection keeps nothing
    /// its credential no longer gives.
    public func requireLogin(now: Date = Date()) throws(TwitterError) -> SessionLogin {
        // The request is answered -32001, which tells it: no `auth.revoked` line before that answer.
        expireLogin(now: now, notify: false)
        switch state.withLock({ $0.login }) {
        case .loggedIn(let login): return login
        case .anonymous: throw TwitterError.unauthenticated
        case .revoked(let reason):
            throw TwitterError(
                .unauthenticated, "Logged out: \(reason.explanation); log in again",
                details: ["reason": .string(reason.rawValue)])
        }
    }

    /// The login, which must be an admin's: -32001 without a login, -32003 (logged as a warning) for anyone
    /// else.
    public func requireAdmin(for method: String, logger: Logger) throws(TwitterError) -> SessionLogin {
        let login = try requireLogin()
        guard login.role == .admin else {
            logger.warning(
                "admin method refused",
                metadata: ["method": "\(method)", "userId": "\(login.userID)", "peer": "\(peer)"])
            throw TwitterError(.forbidden, "Only admins may call \(method)")
        }
        return login
    }

    /// Logs the connection in, listed in `liveLogins` so that a revocation elsewhere reaches it.
    /// Logging in as another account ends the subscriptions made as the one before: they stream what that
    /// account may see.
    public func logIn(_ login: SessionLogin, listedIn liveLogins: LiveLogins) {
        if login.scopes != nil { everScoped.store(true, ordering: .releasing) }
        let (ended, previousTimer) = state.withLock { state -> ([any LiveSubscription], LoginExpiryTimer?) in
            let previous = state.login.current?.userID
            state.login = .loggedIn(login)
            state.liveLogins = liveLogins
            let ended = previous != nil && previous != login.userID ? Self.takeSubscriptions(&state) : []
            return (ended, Self.takeExpiryTimer(&state))
        }
        previousTimer?.cancel()
        for subscription in ended { subscription.cancel() }
        liveLogins.add(self)
        guard let expiresAt = login.expiresAt else { return }
        // Started once the login is in place, so even one expired already finds it; kept only while it lasts.
        let timer = LoginExpiryTimer.start(at: expiresAt) { [weak self] in
            self?.expireLogin(now: Date(), notify: true)
        }
        let kept = state.withLock { state in
            guard case .loggedIn(let current) = state.login, current == login else { return false }
            state.expiryTimer = timer
            return true
        }
        if !kept { timer.cancel() }
    }

    /// Ends the login if it has expired by `now`, as a revocation would: out of the live logins, its
    /// subscriptions ended, -32001 from then on, and with `notify` (the expiry timer, when no request is there to
    /// be answered) one `auth.revoked` line first. The one place a login expires, whoever notices it first.
    func expireLogin(now: Date, notify: Bool) {
        let ended = state.withLock { state -> (LiveLogins?, [any LiveSubscription], LoginExpiryTimer?)? in
            guard case .loggedIn(let login) = state.login, let expiresAt = login.expiresAt, expiresAt <= now else {
                return nil
            }
            state.login = .revoked(.expired)
            defer {
                state.liveLogins = nil
                state.expiryTimer = nil
            }
            return (state.liveLogins, Self.takeSubscriptions(&state), state.expiryTimer)
        }
        guard let (registry, subscriptions, timer) = ended else { return }
        // Cancelling the timer that is running this does nothing more: it has left its sleep.
        timer?.cancel()
        registry?.remove(self)
        // Revoked before the line is queued, so no subscription line can follow it (`isServingSubscriptions`).
        if notify { sendNotification(Self.revokedNotification(.expired)) }
        for subscription in subscriptions { subscription.cancel() }
    }

    /// Logs the connection out at its own request.
    /// Its subscriptions end with the login they were made as.
    public func logOut() {
        let (registry, ended, timer) = state.withLock { state in
            state.login = .anonymous
            defer { state.liveLogins = nil }
            return (state.liveLogins, Self.takeSubscriptions(&state), Self.takeExpiryTimer(&state))
        }
        timer?.cancel()
        for subscription in ended { subscription.cancel() }
        registry?.remove(self)
    }

    /// Takes the expiry timer of a login that ends otherwise out of `state`, to be cancelled outside the lock.
    private static func takeExpiryTimer(_ state: inout State) -> LoginExpiryTimer? {
        defer { state.expiryTimer = nil }
        return state.expiryTimer
    }

    /// Takes every subscription out of `state`, to be cancelled outside the lock.
    private static func takeSubscriptions(_ state: inout State) -> [any LiveSubscription] {
        defer {
            state.subscriptions = [:]
            state.forwardersToStart = []
        }
        return Array(state.subscriptions.values)
    }

    /// Logs the connection out if its login rests on what `revocation` ended, sending `auth.revoked` first when
    /// `notify` is set; its subscriptions end. Returns the login that was cut off.
    func revoke(_ revocation: Revocation, notify: Bool) -> SessionLogin? {
        let outcome = state.withLock { state -> (SessionLogin, [any LiveSubscription], LoginExpiryTimer?)? in
            guard case .loggedIn(let login) = state.login, revocation.covers(login, peerUID: peer.userID) else {
                return nil
            }
            state.login = .revoked(revocation.reason)
            state.liveLogins = nil
            return (login, Self.takeSubscriptions(&state), Self.takeExpiryTimer(&state))
        }
        guard let (login, subscriptions, timer) = outcome else { return nil }
        timer?.cancel()
        // The state is revoked before the line is queued, so no subscription line can follow it (see
        // `isServingSubscriptions`).
        if notify { sendNotification(Self.revokedNotification(revocation.reason)) }
        for subscription in subscriptions { subscription.cancel() }
        return login
    }

    /// False once the login is revoked or past its expiry: subscription lines still in flight are dropped, not
    /// sent after `auth.revoked`, nor in the moment between the expiry and its timer's waking.
    package var isServingSubscriptions: Bool {
        let now = Date()
        return state.withLock { state in
            switch state.login {
            case .revoked: false
            case .loggedIn(let login): login.expiresAt.map { $0 > now } ?? true
            case .anonymous: true
            }
        }
    }

    static func revokedNotification(_ reason: Revocation.Reason) -> [UInt8] {
        var params: [UInt8] = []
        JSONObjectWriter.write(into: &params) { object, bytes in
            object.string("reason", reason.rawValue, into: &bytes)
            object.string("message", "Logged out: \(reason.explanation)", into: &bytes)
        }
        var line: [UInt8] = []
        ResponseWriter.writeNotification(method: API.Auth.revoked.name, encodedParams: params, into: &line)
        return line
    }

    /// Registers a subscription whose forwarder starts once the current answer has been written, so that
    /// the client always sees the answer to tweets.subscribe before the first notification.
    func addSubscription(
        _ make: (Int) -> any StreamForwarding
    ) throws(TwitterError) -> Int {
        try state.withLock { (state) throws(TwitterError) -> Int in
            guard state.subscriptions.count < Self.maximumSubscriptions else {
                throw TwitterError.unavailable(
                    "A connection may hold at most \(Self.maximumSubscriptions) subscriptions")
            }
            let id = state.nextSubscriptionID
            state.nextSubscriptionID += 1
            let forwarder = make(id)
            state.subscriptions[id] = forwarder.liveSubscription
            state.forwardersToStart.append(forwarder)
            return id
        }
    }

    /// The forwarders registered since the last call, to be started by the connection.
    package func takeForwardersToStart() -> [any StreamForwarding] {
        state.withLock { state in
            defer { state.forwardersToStart = [] }
            return state.forwardersToStart
        }
    }

    /// True while a subscription is live.
    package var hasSubscriptions: Bool {
        state.withLock { !$0.subscriptions.isEmpty }
    }

    /// Ends subscription `id`; false when there is none.
    package func cancelSubscription(_ id: Int) -> Bool {
        guard let subscription = state.withLock({ $0.subscriptions.removeValue(forKey: id) }) else { return false }
        subscription.cancel()
        return true
    }

    /// Ends every subscription and leaves the live logins: the connection is closing.
    package func connectionClosed() {
        let (all, registry, timer) = state.withLock { state in
            defer { state.liveLogins = nil }
            return (Self.takeSubscriptions(&state), state.liveLogins, Self.takeExpiryTimer(&state))
        }
        timer?.cancel()
        registry?.remove(self)
        for subscription in all { subscription.cancel() }
    }
}

/// Whether a connection is logged in, and if it was logged out by a revocation, why.
enum LoginState: Sendable {
    case anonymous
    case loggedIn(SessionLogin)
    case revoked(Revocation.Reason)

    var current: SessionLogin? {
        if case .loggedIn(let login) = self { login } else { nil }
    }
}

/// Who a connection is logged in as, through which provider, and the session that keeps it.
///
/// The account is known by its id only: a name can change hands while the connection is open, so every method
/// that needs the name looks it up.
public struct SessionLogin: Sendable, Equatable {
    /// The user's id.
    public var userID: Int64
    /// The provider that authenticated the connection.
    public var provider: String
    /// The id of the token the login rests on, session or personal, so revoking it reaches this connection.
    public var tokenID: Int64
    /// The token's id when it is a session, so logout can revoke it.
    public var sessionID: Int64?
    /// When the session expires, if it does.
    public var expiresAt: Date?
    /// The role, decided at login (`AdminRoles`).
    public var role: AccountRole
    /// The scopes of the OAuth access token the login rests on; nil for every other login, which may call every
    /// method its access allows (`ScopeMiddleware`).
    public var scopes: OAuthScopes?
    /// The OAuth app of the access token the login rests on; nil for every other login.
    public var appID: Int64?

    /// Creates a login.
    public init(userID: Int64, provider: String, token: IssuedSession, role: AccountRole = .user) {
        self.userID = userID
        self.provider = provider
        self.role = role
        self.scopes = token.scopes
        self.appID = token.appID
        self.tokenID = token.id
        self.sessionID = token.kind == .session ? token.id : nil
        self.expiresAt = token.expiresAt
    }
}

extension SessionLogin {
    /// True when the login is a personal token's (a token login that resumed no session), which never mints
    /// another credential.
    public var restsOnPersonalToken: Bool { provider == "token" && sessionID == nil }
}
