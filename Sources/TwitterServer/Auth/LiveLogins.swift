import Synchronization

/// The connections that are logged in now, so that a revocation reaches every connection it affects at once
/// instead of waiting for each to log in again.
///
/// A connection enters at login and leaves when it logs out, is revoked or closes. A revocation logs the
/// matching connections out: their next request gets -32001, and each is sent one `auth.revoked` notification
/// before its live subscriptions end.
public final class LiveLogins: Sendable {
    private let sessions = Mutex<[Int: ConnectionSession]>([:])

    /// Creates an empty registry.
    public init() {}

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
