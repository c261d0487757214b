import Foundation
import Synchronization
import TwitterCore

/// What waits for the next shared transaction: a tweet or reply, or a repost.
enum PendingPost: Sendable {
    case post(PostDraft)
    case repost(Int64, by: Int64)
}

/// Group commit for posts, as in the SQLite store: the first poster to find no commit running starts a loop
/// that writes every post queued meanwhile in one ordered write (one COMMIT, one WAL flush), then the next
/// batch, until the queue is empty. Every poster, that one included, then waits for its own post's outcome, which
/// is set only once its batch is committed.
final class PostCommitter: Sendable {
    private struct Waiting {
        let post: PendingPost
        let outcome: OutcomeSlot<Tweet>
    }

    private struct State {
        var queue: [Waiting] = []
        var isCommitting = false
    }

    private let database: PostgresStore
    private let observer: any TweetCommitObserving
    private let state = Mutex(State())
    /// Idempotency keys are honoured for this long.
    static let idempotencyWindow: TimeInterval = 24 * 60 * 60
    /// The most posts in one transaction; larger bursts commit in several.
    static let maximumBatch = 512

    init(database: PostgresStore, observer: any TweetCommitObserving) {
        self.database = database
        self.observer = observer
    }

    /// Queues `post` for the next batch, starting the commit loop if none runs; the slot gets its outcome.
    func enqueue(_ post: PendingPost) -> OutcomeSlot<Tweet> {
        let outcome = OutcomeSlot<Tweet>()
        let leads = state.withLock { state -> Bool in
            state.queue.append(Waiting(post: post, outcome: outcome))
            guard !state.isCommitting else { return false }
            state.isCommitting = true
            return true
        }
        if leads { Task { await commitUntilEmpty() } }
        return outcome
    }

    private func commitUntilEmpty() async {
        while let batch = nextBatch() {
            let posts = batch.map(\.post)
            do {
                let outcomes = try await database.orderedWrite(reportingTo: observer) { connection in
                    var writer = BatchWriter(connection: connection, now: Date().storagePrecision)
                    var outcomes: [Result<Tweet, TwitterError>] = []
                    outcomes.reserveCapacity(posts.count)
                    for post in posts {
                        // A post refused by a check (a reply to a missing tweet) does not fail the others: the
                        // checks run before the post's first write, so the transaction stays usable.
                        do {
                            switch post {
                            case .post(let draft): outcomes.append(.success(try await writer.post(draft)))
                            case .repost(let id, let userID):
                                outcomes.append(.success(try await writer.repost(id, by: userID)))
                            }
                        } catch let error as TwitterError {
                            outcomes.append(.failure(error))
                        }
                    }
                    return (outcomes, writer.events)
                }
                for (waiting, outcome) in zip(batch, outcomes) { waiting.outcome.fulfil(outcome.mapError { $0 }) }
            } catch {
                for waiting in batch { waiting.outcome.fulfil(.failure(error)) }
            }
        }
    }

    /// The next posts to commit; nil, and the commit loop ends, once none is left.
    private func nextBatch() -> [Waiting]? {
        state.withLock { state in
            guard !state.queue.isEmpty else {
                state.isCommitting = false
                return nil
            }
            let batch = Array(state.queue.prefix(Self.maximumBatch))
            state.queue.removeFirst(batch.count)
            return batch
        }
    }
}
