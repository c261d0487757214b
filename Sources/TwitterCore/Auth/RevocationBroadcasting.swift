/// How a revocation reaches the live connections of the other daemons sharing the database: the daemon that
/// made it cuts its own connections, then broadcasts it; the others receive it as a `TweetEvent.revoked` from
/// their store, in commit order with everything else.
public protocol RevocationBroadcasting: Sendable {
    /// Tells every other daemon on the database about `revocation`.
    func broadcast(_ revocation: Revocation) async throws
}

/// The broadcaster of a store only one daemon serves (SQLite's, held under its lock): there is no one to tell.
public struct NoOtherDaemons: RevocationBroadcasting {
    /// Creates the broadcaster.
    public init() {}

    /// Does nothing: this daemon is the only one.
    public func broadcast(_ revocation: Revocation) async throws {}
}
