import Synchronization
import TwitterCore

/// The connections that are logged in now, so that a revocation reaches every connection it affects at once
/// instead of waiting for each to log in again.
///
/// A connection enters at login and leaves when it logs out, is revoked or closes. A revocation logs the
/// matching connections out: their next request gets -32001, and each is sent one `auth.revoked` notification
/// before its live subscriptions end.
///
/// Daemons sharing one database share revocations: each one this daemon makes is broadcast to the others
/// (`broadcaster`), and theirs arrive through `revokeFromElsewhere`.
public final class LiveLogins: Sendable {
    private let sessions = Mutex<[Int: ConnectionSession]>([:])
    private let broadcaster = Mutex<any OtherDaemons>(NoOtherDaemons())

    /// Creates an empty registry, the only daemon until told otherwise.
    public init() {}

    /// Tells other daemons of this one's revocations through `broadcaster` from now on: set once the stores,
    /// which report the others' revocations here, exist.
    public func broadcast(through broadcaster: any OtherDaemons) {
        self.broadcaster.withLock { $0 = broadcaster }
    }

    /// How many connections are logged in.
    public var count: Int { sessions.withLock { $0.count } }

    func add(_ session: ConnectionSession) {
        sessions.withLock { $0[session.id] = session }
    }

    func remove(_ session: ConnectionSession) {
        _ = sessions.withLock { $0.removeValue(forKey: session.id) }
    }

    /// Logs out every connection that rests on what `revocation` ended, except that the connection that asked
    /// for it (`requester`) gets no notification: its answer tells it. Returns the logins that were cut off.
    @discardableResult
    public func revoke(_ revocation: Revocation, requester: ConnectionSession? = nil) -> [SessionLogin] {
        let cut = cutOff(revocation, requester: requester)
        // The credential is revoked in the store already: a daemon that misses this broadcast refuses it at the
        // next login; the broadcast ends the live connections that rest on it there too.
        let broadcaster = broadcaster.withLock { $0 }
        Task { try? await broadcaster.broadcast(revocation) }
        return cut
    }

    /// Logs out the connections that rest on a revocation another daemon made.
    public func revokeFromElsewhere(_ revocation: Revocation) {
        cutOff(revocation, requester: nil)
    }

    @discardableResult
    private func cutOff(_ revocation: Revocation, requester: ConnectionSession?) -> [SessionLogin] {
        let candidates = sessions.withLock { Array($0.values) }
        var cut: [SessionLogin] = []
        for session in candidates {
            guard let login = session.revoke(revocation, notify: session !== requester) else { continue }
            remove(session)
            cut.append(login)
        }
        return cut
    }
}
