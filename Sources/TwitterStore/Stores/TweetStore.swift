import Foundation
import GRDB
import TwitterCore

/// Tweets in SQLite. Posts that arrive together are committed together (group commit), and every commit is
/// reported to the observer in id order once it is on disk.
public struct TweetStore: TweetStoring {
    let database: AppDatabase
    private let committer: PostCommitter

    /// Creates the store; committed posts and deletions are reported to `observer`.
    public init(database: AppDatabase, observer: any TweetCommitObserving) {
        self.database = database
        committer = PostCommitter(database: database, observer: observer)
    }

    /// Queues the post for the next shared transaction at once; the returned wait ends once it is committed.
    public func post(text: String, idempotencyKey: String?, by userID: Int64) -> @Sendable () async throws -> Tweet {
        let outcome = committer.enqueue(PendingPost(authorID: userID, text: text, idempotencyKey: idempotencyKey))
        return { try await outcome.value() }
    }

    /// Deletes one of the user's tweets.
    public func deleteTweet(id: Int64, by userID: Int64) async throws {
        try await committer.delete(id: id, by: userID)
    }

    /// Newest first, by the primary key or the (author, id) index.
    public func tweets(_ query: TweetQuery) async throws -> [Tweet] {
        try await database.writer.read { db in
            var conditions: [String] = []
            var arguments: StatementArguments = []
            if let sinceID = query.sinceID {
                conditions.append("tweet.id > ?")
                arguments += [sinceID]
            }
            if let maxID = query.maxID {
                conditions.append("tweet.id < ?")
                arguments += [maxID]
            }
            if let authorID = query.authorID {
                conditions.append("tweet.authorId = ?")
                arguments += [authorID]
            }
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            arguments += [query.limit]
            let sql = TweetRow.select("\(filter) ORDER BY tweet.id DESC LIMIT ?")
            return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map(TweetRow.tweet(from:))
        }
    }

    /// One tweet.
    public func tweet(id: Int64) async throws -> Tweet? {
        try await database.writer.read { db in
            let sql = TweetRow.select("WHERE tweet.id = ?")
            return try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [id]).map(TweetRow.tweet(from:))
        }
    }

    /// Oldest first after `sinceID`, for catching a subscription up.
    public func tweets(after sinceID: Int64, authorID: Int64?, limit: Int) async throws -> [Tweet] {
        try await database.writer.read { db in
            var filter = "WHERE tweet.id > ?"
            var arguments: StatementArguments = [sinceID]
            if let authorID {
                filter += " AND tweet.authorId = ?"
                arguments += [authorID]
            }
            arguments += [limit]
            let sql = TweetRow.select("\(filter) ORDER BY tweet.id ASC LIMIT ?")
            return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map(TweetRow.tweet(from:))
        }
    }
}
