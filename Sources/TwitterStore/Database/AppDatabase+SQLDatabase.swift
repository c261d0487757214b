import GRDB
import TwitterCore
import TwitterSQL

/// The stores written once run on SQLite through GRDB's own ways in: a reader for reads, the writer's
/// transaction for writes, and `CommitReporter` for the writes the read model learns of.
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

    /// One transaction on the writer, reported by `CommitReporter` on the writer's queue, in commit order.
    public func orderedWrite<Result: Sendable>(
        reportingTo observer: any TweetCommitObserving,
        _ body: @escaping @Sendable (any SQLConnection) async throws -> (Result, [TweetEvent])
    ) async throws -> Result {
        try await CommitReporter(database: self, observer: observer).write { db in try SQLiteConnection.run(db, body) }
    }

    /// Sets the one observer of committed sends.
    public func observeMessages(_ observer: any MessageCommitObserving) {
        messageObserver.withLock { $0 = observer }
    }

    /// Sends are reported on the writer's queue once committed, so live connections hear of them in commit order.
    public func messageWrite<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLConnection) async throws -> (Result, [MessageEvent])
    ) async throws -> Result {
        let observer = messageObserver.withLock { $0 }
        return try await writer.writeWithoutTransaction { db in
            var outcome: (Result, [MessageEvent])?
            try db.inTransaction {
                outcome = try SQLiteConnection.run(db, body)
                return .commit
            }
            guard let (result, events) = outcome else { throw TwitterError(.internal, "The send had no outcome") }
            if !events.isEmpty { observer?.committed(events, elsewhere: false) }
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
