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
    ///
    /// Returns once the other daemons have applied it: the revocation is in the commit log and every current
    /// daemon has acknowledged it before the caller answers, and a daemon that is not current reads the log to
    /// its end (`catchUp`) before it serves a logged-in request, so no daemon serves what it ended once the
    /// answer is out.
    @discardableResult
    public func revoke(_ revocation: Revocation, requester: ConnectionSession? = nil) async -> [SessionLogin] {
        let cut = cutOff(revocation, requester: requester)
        let broadcaster = broadcaster.withLock { $0 }
        guard broadcaster.mayExist else { return cut }
        do {
            try await broadcaster.broadcast(revocation)
        } catch {
            // The credential is revoked in the store already, so no daemon accepts it at a login; the database went
            // away before the log entry was written, so the others' live connections resting on it are told once
            // it is back. Until then they cannot catch up, and refuse every logged-in request (-32008).
            Task { await Self.keepBroadcasting(revocation, through: broadcaster) }
        }
        return cut
    }

    /// Tries the broadcast once a second until it is written, for as long as the commit log keeps entries.
    private static func keepBroadcasting(_ revocation: Revocation, through broadcaster: any OtherDaemons) async {
        let deadline = ContinuousClock.now + .seconds(3600)
        while ContinuousClock.now < deadline {
            do {
                try await Task.sleep(for: .seconds(1))
                try await broadcaster.broadcast(revocation)
                return
            } catch is CancellationError {
                return
            } catch {
                continue
            }
        }
    }

    /// What to do before serving a request on a logged-in connection, or nil when this daemon is current (the only
    /// one, or holding its lease: every revocation answered elsewhere has been applied here): read the other
    /// daemons' commit log to its end, so every revocation answered anywhere before this request has logged out
    /// the connections here that rest on it, then serve it, telling the read model that this request has caught
    /// up already.
    public var catchUpBeforeServing: RequestProcessor<RequestContext>.Preparation? {
        let others = broadcaster.withLock { $0 }
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
