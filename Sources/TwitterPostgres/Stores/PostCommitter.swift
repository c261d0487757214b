import Foundation
import TwitterCore
import TwitterSQL

/// Group commit for posts, as in the SQLite store: the first poster to find no commit running starts a loop
/// that writes every post queued meanwhile in one ordered write (one COMMIT, one WAL flush), then the next
/// batch, until the queue is empty. Every poster, that one included, then waits for its own post's outcome, which
/// is set only once its batch is committed. Within a batch, posts are staged and written together (`BatchWriter`);
/// a repost, or a post whose idempotency key a staged post holds, first has the staged posts written.
final class PostCommitter: PostCommitting {
    private let database: PostgresStore
    private let observer: any TweetCommitObserving
    private let queue = GroupCommitQueue<PendingPost, Tweet>(maximumBatch: PostCommitter.maximumBatch)
    /// The most posts in one transaction; larger bursts commit in several.
    static let maximumBatch = 512

    init(database: PostgresStore, observer: any TweetCommitObserving) {
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
                    var writer = BatchWriter(connection: connection, now: Date().storagePrecision)
                    var outcomes = [Result<Tweet, TwitterError>?](repeating: nil, count: posts.count)
                    for (index, post) in posts.enumerated() {
                        let seesStaged =
                            switch post {
                            case .post(let draft): writer.mustWriteStaged(before: draft)
                            case .repost: true
                            }
                        if seesStaged {
                            for (written, tweet) in try await writer.writeStaged() {
                                outcomes[written] = .success(tweet)
                            }
                        }
                        // A post refused by a check (a reply to a missing tweet) does not fail the others: the
                        // checks run before the post's first write, so the transaction stays usable.
                        do {
                            switch post {
                            case .post(let draft):
                                if let earlier = try await writer.stage(draft, as: index) {
                                    outcomes[index] = .success(earlier)
                                }
                            case .repost(let id, let userID):
                                outcomes[index] = .success(try await writer.repost(id, by: userID))
                            }
                        } catch let error as TwitterError {
                            outcomes[index] = .failure(error)
                        }
                    }
                    for (written, tweet) in try await writer.writeStaged() { outcomes[written] = .success(tweet) }
                    return (
                        outcomes.map { $0 ?? .failure(TwitterError(.internal, "A post of the batch was not written")) },
                        writer.events
                    )
                }
                for (waiting, outcome) in zip(batch, outcomes) { waiting.outcome.fulfil(outcome.mapError { $0 }) }
            } catch {
                for waiting in batch { waiting.outcome.fulfil(.failure(error)) }
            }
        }
    }
}
