/// The other daemons serving the same database, as far as this one must reckon with them: a PostgreSQL store
/// several hosts share has them, SQLite's (held under its lock) never does.
///
/// What they commit reaches this daemon's observer through the store, in commit order, on the store's own
/// schedule: within a notification's delivery while the daemon is `isCurrent`. A daemon that is not current
/// catches up before it serves a logged-in request or answers a page from its caches. A revocation made here is
/// written with its `AccountEvent.revoked` entry in one ordered write, so their live connections resting on it end
/// too, and it is answered only once every current daemon has applied it.
public protocol OtherDaemons: Sendable {
    /// Whether other daemons may share the store; when false, `catchUp` has nothing to do.
    var mayExist: Bool { get }

    /// Whether this daemon may answer from its caches without catching up first: no commit that withdraws access and
    /// is answered elsewhere can be missing here, and every commit it was told of has reached its observer. Cheap:
    /// no round trip.
    var isCurrent: Bool { get }

    /// Returns once every commit the others made before the call has reached this daemon's observer.
    func catchUp() async throws
}

/// The store only one daemon serves: there is no one to catch up with or to tell.
public struct NoOtherDaemons: OtherDaemons {
    /// Creates the value.
    public init() {}

    /// False: this daemon is the only one.
    public var mayExist: Bool { false }

    /// True: there is nothing to miss.
    public var isCurrent: Bool { true }

    /// Does nothing.
    public func catchUp() async throws {}
}

/// Whether the running request caught up with the other daemons after it arrived: it then has every commit made
/// before it, and a read model need not catch up again for it (one round trip a request, not two).
public enum OtherDaemonsCatchUp {
    /// True inside a request that caught up after it arrived.
    @TaskLocal public static var isDoneForThisRequest = false
}
