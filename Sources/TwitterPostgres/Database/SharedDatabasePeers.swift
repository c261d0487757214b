import TwitterCore

/// The other daemons on a PostgreSQL database, reached through the commit log (`CommitFeed`): catching up is
/// reading the log to its end, being current is holding the `ReadLease` with every notified entry delivered. A
/// revocation is logged as an `AccountEvent.revoked` event by the ordered write that makes it, which the other
/// daemons' feeds deliver to their live logins in commit order (and this daemon's feed leaves out), answered once
/// they have acknowledged it.
struct SharedDatabasePeers: OtherDaemons {
    let database: PostgresStore

    /// True: any number of daemons may open the same database.
    var mayExist: Bool { true }

    /// Whether the lease holds and every notified entry is delivered.
    var isCurrent: Bool { database.feed.isCurrent() }

    /// Delivers every entry committed so far.
    func catchUp() async throws {
        try await database.feed.catchUp(reading: database)
    }
}
