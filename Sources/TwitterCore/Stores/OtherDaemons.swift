/// The other daemons serving the same database, as far as this one must reckon with them: a PostgreSQL store
/// several hosts share has them, SQLite's (held under its lock) never does.
///
/// What they commit reaches this daemon's observer through the store, in commit order, on the store's own
/// schedule. Memory that answers reads (the read model) therefore catches up first, so a user who writes through
/// one daemon and reads through another reads their own write; and a revocation made here is broadcast, so
/// their live connections resting on it end too (they arrive there as `TweetEvent.revoked`).
public protocol OtherDaemons: Sendable {
    /// Whether other daemons may share the store; when false, `catchUp` has nothing to do.
    var mayExist: Bool { get }

    /// Returns once every commit the others made before the call has reached this daemon's observer.
    func catchUp() async throws

    /// Tells every other daemon about `revocation`.
    func broadcast(_ revocation: Revocation) async throws
}

/// The store only one daemon serves: there is no one to catch up with or to tell.
public struct NoOtherDaemons: OtherDaemons {
    /// Creates the value.
    public init() {}

    /// False: this daemon is the only one.
    public var mayExist: Bool { false }

    /// Does nothing.
    public func catchUp() async throws {}

    /// Does nothing.
    public func broadcast(_ revocation: Revocation) async throws {}
}

/// Whether the running request caught up with the other daemons after it arrived: it then has every commit made
/// before it, and a read model need not catch up again for it (one round trip a request, not two).
public enum OtherDaemonsCatchUp {
    /// True inside a request that caught up after it arrived.
    @TaskLocal public static var isDoneForThisRequest = false
}
