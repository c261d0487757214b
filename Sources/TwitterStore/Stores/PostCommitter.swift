import Foundation
import GRDB
import Synchronization
import TwitterCore

/// A post waiting for the next shared transaction.
struct PendingPost: Sendable {
    let authorID: Int64
    let text: String
    let idempotencyKey: String?
}

/// Group commit for posts: the first poster to find no commit running hands the database writer a loop that
/// writes every post queued meanwhile in one transaction (one fsync), then the next batch, until the queue is
/// empty. Every poster, that one included, then just waits for its own post's outcome.
///
/// The loop runs on the writer's own thread, so a batch starts the moment the previous one is on disk rather
/// than after a hop back to some event loop; there is no background task. Batches run one after another, so
/// tweets are committed and reported in id order.
final class PostCommitter: Sendable {
    private struct Waiting {
        let post: PendingPost
        let outcome: OutcomeSlot<Tweet>
    }

    private struct State {
        var queue: [Waiting] = []
        var isCommitting = false
    }

    private let database: AppDatabase
    private let observer: any TweetCommitObserving
    private let state = Mutex(State())
    /// Idempotency keys are honoured for this long.
    static let idempotencyWindow: TimeInterval = 24 * 60 * 60
    /// The most posts in one transaction; larger bursts commit in several.
    static let maximumBatch = 512

    init(database: AppDatabase, observer: any TweetCommitObserving) {
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
        if leads { database.writer.asyncWriteWithoutTransaction(commitUntilEmpty) }
        return outcome
    }

    private func commitUntilEmpty(_ db: Database) {
        while let batch = nextBatch() {
            do {
                var tweets: [Outcome] = []
                try db.inTransaction {
                    tweets = try write(batch.map(\.post), in: db)
                    return .commit
                }
                let new = tweets.filter(\.isNew).map(\.tweet)
                if !new.isEmpty { observer.committed(new.map { .posted($0) }) }
                for (waiting, outcome) in zip(batch, tweets) { waiting.outcome.fulfil(.success(outcome.tweet)) }
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

    private struct Outcome {
        let tweet: Tweet
        let isNew: Bool
    }

    private func write(_ posts: [PendingPost], in db: Database) throws -> [Outcome] {
        let now = Date().storagePrecision
        // Formatted once per batch: Foundation's date formatting was a third of the writer's time.
        let storedNow = now.databaseValue
        let windowStart = now.addingTimeInterval(-Self.idempotencyWindow)
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(posts.count)
        // A batch is usually a few authors posting many times: each name is looked up once per batch.
        var usernames: [Int64: String] = [:]
        for post in posts {
            if let key = post.idempotencyKey {
                if let earlier = try Self.earlierPost(db, authorID: post.authorID, key: key, since: windowStart) {
                    outcomes.append(Outcome(tweet: earlier, isNew: false))
                    continue
                }
                // A key older than the window may be used again: the old tweet lets go of it.
                try db.execute(
                    sql: "UPDATE tweet SET idempotencyKey = NULL WHERE authorId = ? AND idempotencyKey = ?",
                    arguments: [post.authorID, key]
                )
            }
            try db.cachedStatement(
                sql: "INSERT INTO tweet (authorId, text, createdAt, idempotencyKey) VALUES (?, ?, ?, ?)"
            )
            .execute(arguments: [post.authorID, post.text, storedNow, post.idempotencyKey])
            let username =
                try usernames[post.authorID] ?? String.fetchOne(
                    db.cachedStatement(sql: "SELECT username FROM user WHERE id = ?"), arguments: [post.authorID]
                ) ?? ""
            usernames[post.authorID] = username
            let tweet = Tweet(
                id: db.lastInsertedRowID, author: Tweet.Author(id: post.authorID, username: username),
                text: post.text,
                createdAt: now
            )
            outcomes.append(Outcome(tweet: tweet, isNew: true))
        }
        return outcomes
    }

    private static func earlierPost(_ db: Database, authorID: Int64, key: String, since: Date) throws -> Tweet? {
        let sql = TweetRow.select("WHERE tweet.authorId = ? AND tweet.idempotencyKey = ? AND tweet.createdAt >= ?")
        return try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [authorID, key, since]).map(
            TweetRow.tweet(from:))
    }

    /// Deletes one tweet of `userID` and announces it once committed.
    func delete(id: Int64, by userID: Int64) async throws {
        let authorID = try await database.writer.write { db -> Int64 in
            guard let authorID = try Int64.fetchOne(db, sql: "SELECT authorId FROM tweet WHERE id = ?", arguments: [id])
            else {
                throw TwitterError.notFound("Tweet \(id)")
            }
            guard authorID == userID else {
                throw TwitterError(.forbidden, "Tweet \(id) is not yours to delete")
            }
            try db.execute(sql: "DELETE FROM tweet WHERE id = ?", arguments: [id])
            return authorID
        }
        observer.committed([.deleted(id: id, authorID: authorID)])
    }
}
