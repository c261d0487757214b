import Foundation
import Synchronization
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
    private let state = Mutex(State())

    struct State {
        var login: SessionLogin?
        var subscriptions: [Int: TweetSubscription] = [:]
        var forwardersToStart: [SubscriptionForwarder] = []
        var nextSubscriptionID = 1
    }

    /// The most live subscriptions one connection may hold.
    static let maximumSubscriptions = 64

    /// Creates the state of a new connection.
    public init(id: Int, peer: PeerCredentials) {
        self.id = id
        self.peer = peer
    }

    /// The login of this connection, if it has logged in.
    public var login: SessionLogin? {
        state.withLock { $0.login }
    }

    /// True once the connection has logged in.
    public var isAuthenticated: Bool { login != nil }

    /// Marks the connection logged in (or out, with nil).
    public func setLogin(_ login: SessionLogin?) {
        state.withLock { $0.login = login }
    }

    /// Registers a subscription whose forwarder starts once the current answer has been written, so that
    /// the client always sees the answer to tweets.subscribe before the first notification.
    func addSubscription(
        _ make: (Int) -> SubscriptionForwarder
    ) throws(TwitterError) -> Int {
        try state.withLock { (state) throws(TwitterError) -> Int in
            guard state.subscriptions.count < Self.maximumSubscriptions else {
                throw TwitterError.unavailable(
                    "A connection may hold at most \(Self.maximumSubscriptions) subscriptions")
            }
            let id = state.nextSubscriptionID
            state.nextSubscriptionID += 1
            let forwarder = make(id)
            state.subscriptions[id] = forwarder.subscription
            state.forwardersToStart.append(forwarder)
            return id
        }
    }

    /// The forwarders registered since the last call, to be started by the connection.
    func takeForwardersToStart() -> [SubscriptionForwarder] {
        state.withLock { state in
            defer { state.forwardersToStart = [] }
            return state.forwardersToStart
        }
    }

    /// True while a subscription is live.
    var hasSubscriptions: Bool {
        state.withLock { !$0.subscriptions.isEmpty }
    }

    /// Ends subscription `id`; false when there is none.
    func cancelSubscription(_ id: Int) -> Bool {
        guard let subscription = state.withLock({ $0.subscriptions.removeValue(forKey: id) }) else { return false }
        subscription.cancel()
        return true
    }

    /// Ends every subscription: the connection is closing.
    func cancelAllSubscriptions() {
        let all = state.withLock { state in
            defer {
                state.subscriptions = [:]
                state.forwardersToStart = []
            }
            return Array(state.subscriptions.values)
        }
        for subscription in all { subscription.cancel() }
    }
}

/// Who a connection is logged in as, through which provider, and the session that keeps it.
public struct SessionLogin: Sendable, Equatable {
    /// The user's id.
    public var userID: Int64
    /// The user's name, for logs and authorship.
    public var username: String
    /// The provider that authenticated the connection.
    public var provider: String
    /// The session token's id, so logout can revoke it.
    public var sessionID: Int64?
    /// When the session expires, if it does.
    public var expiresAt: Date?

    /// Creates a login.
    public init(userID: Int64, username: String, provider: String, sessionID: Int64?, expiresAt: Date?) {
        self.userID = userID
        self.username = username
        self.provider = provider
        self.sessionID = sessionID
        self.expiresAt = expiresAt
    }
}
