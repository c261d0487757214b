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

/// Group commit for posts: the first poster to find no commit running becomes the committer and writes every
/// post queued meanwhile in one transaction (one fsync), then the next batch, until the queue is empty.
///
/// There is no background task: the work is done by the callers themselves, each of which then takes its
/// own post's outcome. Batches run one after another, so tweets are committed and published in id order.
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
    private let hub: TweetHub
    private let cache: FeedCache
    private let state = Mutex(State())
    /// Idempotency keys are honoured for this long.
    static let idempotencyWindow: TimeInterval = 24 * 60 * 60
    /// The most posts in one transaction; larger bursts commit in several.
    static let maximumBatch = 512

    init(database: AppDatabase, hub: TweetHub, cache: FeedCache) {
        self.database = database
        self.hub = hub
        self.cache = cache
    }

    func post(_ post: PendingPost) async throws -> Tweet {
        let outcome = OutcomeSlot<Tweet>()
        let leads = state.withLock { state -> Bool in
            state.queue.append(Waiting(post: post, outcome: outcome))
            guard !state.isCommitting else { return false }
            state.isCommitting = true
            return true
        }
        if leads { await commitUntilEmpty() }
        return try await outcome.value()
    }

    private func commitUntilEmpty() async {
        while true {
            let batch = state.withLock { state -> [Waiting] in
                let batch = Array(state.queue.prefix(Self.maximumBatch))
                state.queue.removeFirst(batch.count)
                if batch.isEmpty { state.isCommitting = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                let tweets = try await write(batch.map(\.post))
                let new = tweets.filter(\.isNew).map(\.tweet)
                cache.inserted(new)
                hub.publish(new.map { .posted($0) })
                for (waiting, outcome) in zip(batch, tweets) { waiting.outcome.fulfil(.success(outcome.tweet)) }
            } catch {
                for waiting in batch { waiting.outcome.fulfil(.failure(error)) }
            }
        }
    }

    private struct Outcome {
        let tweet: Tweet
        let isNew: Bool
    }

    private func write(_ posts: [PendingPost]) async throws -> [Outcome] {
        try await database.writer.write { db in
            let now = Date().storagePrecision
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
                .execute(arguments: [post.authorID, post.text, now, post.idempotencyKey])
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
    }

    private static func earlierPost(_ db: Database, authorID: Int64, key: String, since: Date) throws -> Tweet? {
        let sql = """
            SELECT \(TweetRow.feedSelection) FROM tweet JOIN user ON user.id = tweet.authorId
            WHERE tweet.authorId = ? AND tweet.idempotencyKey = ? AND tweet.createdAt >= ?
            """
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
        cache.deleted(id: id)
        hub.publish([.deleted(id: id, authorID: authorID)])
    }
}
