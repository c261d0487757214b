import JSONRPC
import Synchronization
import TwitterCore

/// The connections that are logged in now, so that a revocation reaches every connection it affects at once
/// instead of waiting for each to log in again.
///
/// A connection enters at login and leaves when it logs out, is revoked or closes. A revocation logs the
/// matching connections out: their next request gets -32001, and each is sent one `auth.revoked` notification
/// before its live subscriptions end.
///
/// Daemons sharing one database share revocations: the store writes each one this daemon makes with its entry in
/// the commit log, in the same transaction (`TokenStore+Revocations`, and the suspension, deletion and role
/// writes), so none commits without the others being told; theirs arrive here through `revokeFromElsewhere`.
public final class LiveLogins: Sendable {
    private let sessions = Mutex<[Int: ConnectionSession]>([:])
    private let others = Mutex<any OtherDaemons>(NoOtherDaemons())

    /// Creates an empty registry, the only daemon until told otherwise.
    public init() {}

    /// Catches up with `others` before serving a logged-in request when this daemon is not current
    /// (`catchUpBeforeServing`): set once the stores, which report the others' revocations here, exist.
    public func reckon(with others: any OtherDaemons) {
        self.others.withLock { $0 = others }
    }

    /// How many connections are logged in.
    public var count: Int { sessions.withLock { $0.count } }

    func add(_ session: ConnectionSession) {
        sessions.withLock { $0[session.id] = session }
    }

    func remove(_ session: ConnectionSession) {
        _ = sessions.withLock { $0.removeValue(forKey: session.id) }
    }

    /// Logs out every connection here that rests on what `revocation` ended, except that the connection that
    /// asked for it (`requester`) gets no notification: its answer tells it. Returns the logins that were cut off.
    ///
    /// Called once the store has committed the revocation, which it did with the entry telling the other daemons
    /// and returned once every current one had applied it; a daemon that is not current reads the log to its end
    /// (`catchUp`) before it serves a logged-in request, so no daemon serves what it ended once the answer is out.
    /// A revocation that could not be logged was not committed either: its call fails, and nothing is cut off.
    @discardableResult
    public func revoke(_ revocation: Revocation, requester: ConnectionSession? = nil) -> [SessionLogin] {
        cutOff(revocation, requester: requester)
    }

    /// What to do before serving a request on a logged-in connection, or nil when this daemon is current (the only
    /// one, or holding its lease: every revocation answered elsewhere has been applied here): read the other
    /// daemons' commit log to its end, so every revocation answered anywhere before this request has logged out
    /// the connections here that rest on it, then serve it, telling the read model that this request has caught
    /// up already.
    public var catchUpBeforeServing: Preparation? {
        let others = others.withLock { $0 }
        guard !others.isCurrent else { return nil }
        return { serve in
            try await others.catchUp()
            return try await OtherDaemonsCatchUp.$isDoneForThisRequest.withValue(true) { try await serve() }
        }
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
