import TwitterCore

/// Revocations broadcast through the commit log: an ordered write of one `.revoked` event, which the other
/// daemons' commit feeds deliver to their live logins in commit order (and this daemon's feed leaves out).
struct RevocationLog: RevocationBroadcasting {
    let database: PostgresStore

    /// Logs `revocation` for the other daemons.
    func broadcast(_ revocation: Revocation) async throws {
        try await database.orderedWrite(reportingTo: IgnoredEvents()) { _ in ((), [.revoked(revocation)]) }
    }
}

/// Where this daemon's own revocation events go: it has acted on them already.
private struct IgnoredEvents: TweetCommitObserving {
    func committed(_ events: [TweetEvent]) {}
}
