import Foundation
import TwitterCore
import TwitterSQL

/// Group commit for posts: the first poster to find no commit running starts a loop
/// that writes every post queued meanwhile in one ordered write (one COMMIT, one WAL flush), then the next
/// batch, until the queue is empty. Every poster, that one included, then waits for its own post's outcome, which
/// is set only once its batch is committed. Within a batch, posts are staged and written together (`BatchWriter`), in bulk
/// (`BulkPostRows`).
final class PostCommitter: PostCommitting {
    private let database: PostgresStore
    private let observer: any CommitObserving
    private let queue = GroupCommitQueue<PendingPost, Tweet>(maximumBatch: PostCommitter.maximumBatch)
    /// The most posts in one transaction; larger bursts commit in several.
    static let maximumBatch = 512

    init(database: PostgresStore, observer: any CommitObserving) {
        self.database = database
        self.observer = observer
    }

    /// Queues `post` for the next batch, starting the commit loop if none runs; the slot gets its outcome.
    func enqueue(_ post: PendingPost) -> OutcomeSlot<Tweet> {
        let (outcome, leads) = queue.enqueue(post)
        if leads { Task { await commitUntilEmpty() } }
        return outcome
    }

    private func commitUntilEmpty() async {
        while let batch = queue.nextBatch() {
            let posts = batch.map(\.item)
            do {
                let outcomes = try await database.orderedWrite(reportingTo: observer) { connection in
                    try await BatchWriter.write(
                        posts, on: PostgresSQLConnection(connection: connection), rows: BulkPostRows(),
                        now: SQLDialect.postgres.stored(Date()))
                }
                for (waiting, outcome) in zip(batch, outcomes) { waiting.outcome.fulfil(outcome.mapError { $0 }) }
            } catch {
                for waiting in batch { waiting.outcome.fulfil(.failure(error)) }
            }
        }
    }
}
