import TwitterCore

/// What every store whose writes the read model learns of is built on: its database, and the observer each of its
/// ordered writes is reported to, held once so no write can name another.
struct ObservedDatabase: Sendable {
    /// The database the store reads and writes.
    let database: any SQLDatabase
    /// Who hears of the store's committed writes.
    let observer: any CommitObserving

    /// Runs `body` on a connection outside any write: reads.
    func read<Result: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> Result)
        async throws -> Result
    {
        try await database.read(body)
    }

    /// Runs `body` on a connection that sees one moment's state throughout: a long read of several statements.
    func snapshot<Result: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> Result)
        async throws -> Result
    {
        try await database.snapshot(body)
    }

    /// Runs `body` in one transaction the read model need not learn of.
    func transaction<Result: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> Result)
        async throws -> Result
    {
        try await database.transaction(body)
    }

    /// Runs `body` in the one order of the writes the read model learns of, and reports the events it returned
    /// to the store's observer once committed (`SQLDatabase.orderedWrite`).
    func orderedWrite<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLConnection) async throws -> (Result, [CommitEvent])
    ) async throws -> Result {
        try await database.orderedWrite(reportingTo: observer, body)
    }
}
