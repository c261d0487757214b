import GRDB
import TwitterCore

/// Runs a write transaction and reports its events to the observer once it is committed, on the writer's own
/// queue: every reporter and the post committer share that queue, so the observer learns of commits in the
/// order they were made, which is what the read model and the live streams depend on.
struct CommitReporter: Sendable {
    let database: AppDatabase
    let observer: any TweetCommitObserving

    /// Runs `body` in one transaction; once committed, reports the events it returned.
    func write<Result: Sendable>(_ body: @escaping @Sendable (Database) throws -> (Result, [TweetEvent])) async throws
        -> Result
    {
        try await database.writer.writeWithoutTransaction { db in
            var outcome: (Result, [TweetEvent])?
            try db.inTransaction {
                outcome = try body(db)
                return .commit
            }
            guard let (result, events) = outcome else { throw TwitterError(.internal, "The write had no outcome") }
            if !events.isEmpty { observer.committed(events) }
            return result
        }
    }
}
