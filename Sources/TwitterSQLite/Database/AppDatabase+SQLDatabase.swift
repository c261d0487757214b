import GRDB
import TwitterCore
import TwitterSQL

/// The stores written once run on SQLite through GRDB's own ways in: a reader for reads, the writer's
/// transaction for writes, and for the writes others learn of (the read model, live streams) the writer's
/// transaction reported on the writer's own queue once committed: every such write and the post committer share
/// that queue, so the observers learn of commits in the order they were made.
extension AppDatabase: SQLDatabase {
    /// A GRDB read: one transaction on a reader of the pool.
    public func read<Result: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> Result)
        async throws -> Result
    {
        try await writer.read { db in try SQLiteConnection.run(db, body) }
    }

    /// GRDB's read is one transaction, which in WAL mode sees the moment it began.
    public func snapshot<Result: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> Result)
        async throws -> Result
    {
        try await read(body)
    }

    /// A GRDB write: one transaction on the writer.
    public func transaction<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLConnection) async throws -> Result
    ) async throws -> Result {
        try await writer.write { db in try SQLiteConnection.run(db, body) }
    }

    /// One transaction on the writer, its events reported once committed, on the writer's queue.
    public func orderedWrite<Result: Sendable>(
        reportingTo observer: any CommitObserving,
        _ body: @escaping @Sendable (any SQLConnection) async throws -> (Result, [CommitEvent])
    ) async throws -> Result {
        try await writer.writeWithoutTransaction { db in
            var outcome: (Result, [CommitEvent])?
            try db.inTransaction {
                outcome = try SQLiteConnection.run(db, body)
                return .commit
            }
            guard let (result, events) = outcome else { throw TwitterError(.internal, "The write had no outcome") }
            if !events.isEmpty { observer.committed(events) }
            return result
        }
    }

    /// SQLite names the columns: "UNIQUE constraint failed: users.email_key". One writer checks before it writes,
    /// so only a row written by hand meanwhile gets here.
    public func uniqueViolation(in error: any Error) -> String? {
        guard let error = error as? DatabaseError, error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE else {
            return nil
        }
        return error.message
    }
}
