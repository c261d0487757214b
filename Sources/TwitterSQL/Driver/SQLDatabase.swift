import TwitterCore

/// A database the stores written once (`TwitterSQL/Stores`) run on: four ways to hold a connection, as each
/// store needs. It knows no domain: what a write reports is a commit's events, whatever they are about.
public protocol SQLDatabase: Sendable {
    /// Runs `body` on a connection outside any write: reads.
    func read<Result: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> Result)
        async throws -> Result

    /// Runs `body` on a connection that sees one moment's state throughout, writing nothing: a long read made
    /// of several statements.
    func snapshot<Result: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> Result)
        async throws -> Result

    /// Runs `body` in one transaction, rolled back when it throws: writes the read model need not learn of.
    func transaction<Result: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> Result)
        async throws -> Result

    /// Runs `body` in one transaction, in the one order of the writes the read model learns of, and reports the
    /// events it returned to `observer` once committed, before the next such write.
    func orderedWrite<Result: Sendable>(
        reportingTo observer: any CommitObserving,
        _ body: @escaping @Sendable (any SQLConnection) async throws -> (Result, [CommitEvent])
    ) async throws -> Result

    /// The unique index `error` says a write hit, by the names of its columns (e.g. "users.email_key" or
    /// "users_email_key_key"); nil when `error` is anything else.
    func uniqueViolation(in error: any Error) -> String?
}
