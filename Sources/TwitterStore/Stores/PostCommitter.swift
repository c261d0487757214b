import Foundation
import GRDB
import TwitterCore

/// Group commit for posts: the first poster to find no commit running hands the database writer a loop that
/// writes every post queued meanwhile in one transaction (one fsync), then the next batch, until the queue is
/// empty. Every poster, that one included, then just waits for its own post's outcome.
///
/// The loop runs on the writer's own thread, so a batch starts the moment the previous one is on disk rather
/// than after a hop back to some event loop; there is no background task. Batches run one after another, so
/// tweets are committed and reported in id order. The text index is not written in a batch's transaction but
/// after its answers, a thousand tweets at a time (`SearchIndexer`).
final class PostCommitter: Sendable {
    private let database: AppDatabase
    private let observer: any TweetCommitObserving
    private let queue = GroupCommitQueue<PendingPost, Tweet>(maximumBatch: PostCommitter.maximumBatch)
    /// The most posts in one transaction; larger bursts commit in several.
    static let maximumBatch = 512

    init(database: AppDatabase, observer: any TweetCommitObserving) {
        self.database = database
        self.observer = observer
    }

    /// Queues `post` for the next batch, starting the commit loop if none runs; the slot gets its outcome.
    func enqueue(_ post: PendingPost) -> OutcomeSlot<Tweet> {
        let (outcome, leads) = queue.enqueue(post)
        if leads { database.writer.asyncWriteWithoutTransaction(commitUntilEmpty) }
        return outcome
    }

    private func commitUntilEmpty(_ db: Database) {
        while let batch = queue.nextBatch() {
            do {
                var outcomes: [Outcome] = []
                var events: [TweetEvent] = []
                try db.inTransaction {
                    (outcomes, events) = try write(batch.map(\.item), in: db)
                    return .commit
                }
                if !events.isEmpty { observer.committed(events) }
                for (waiting, outcome) in zip(batch, outcomes) { waiting.outcome.fulfil(outcome) }
            } catch {
                for waiting in batch { waiting.outcome.fulfil(.failure(error)) }
                continue
            }
            // After the answers: the posts are searchable already (the index's lag is read from the tweet
            // table); a failure here leaves the tweets for the next commit to index.
            try? SearchIndexer.afterCommit(db)
        }
    }

    /// A post's own outcome: one post refused (a reply to a missing tweet) does not fail the others.
    private typealias Outcome = Result<Tweet, any Error>

    /// Writes a batch; returns each post's outcome and the events of those that changed something.
    private func write(_ posts: [PendingPost], in db: Database) throws -> ([Outcome], [TweetEvent]) {
        var batch = BatchWriter(db: db, now: Date().storagePrecision)
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(posts.count)
        for post in posts {
            do {
                switch post {
                case .post(let draft): outcomes.append(.success(try batch.post(draft)))
                case .repost(let id, let userID): outcomes.append(.success(try batch.repost(id, by: userID)))
                }
            } catch let error as TwitterError {
                outcomes.append(.failure(error))
            }
        }
        return (outcomes, batch.events)
    }
}
