import Foundation
import GRDB
import TwitterCore
import TwitterRules
import TwitterSQL

/// Likes in SQLite, and what one reader has liked and reposted; each like is reported with the new counts.
public struct LikeStore: LikeStoring {
    let database: AppDatabase
    private let reporter: CommitReporter

    /// Creates the store; committed likes are reported to `observer`.
    public init(database: AppDatabase, observer: any TweetCommitObserving) {
        self.database = database
        reporter = CommitReporter(database: database, observer: observer)
    }

    /// Inserts the like unless it exists, counting it in the same transaction.
    public func like(_ id: Int64, by userID: Int64) async throws -> TweetCounts {
        try await change(id, by: userID, liking: true)
    }

    /// Deletes the like if it exists, counting it in the same transaction.
    public func unlike(_ id: Int64, by userID: Int64) async throws -> TweetCounts {
        try await change(id, by: userID, liking: false)
    }

    /// Reads the facts `LikeRule` decides on, then writes the like or takes it back, counting it in the same
    /// transaction.
    private func change(_ id: Int64, by userID: Int64, liking: Bool) async throws -> TweetCounts {
        try await reporter.write { db in
            // Taking back a like needs no sight of the tweet; the server's read path asks for it first anyway.
            let target = try Interactions.target(db, of: id, for: liking ? userID : nil)
            let plan = try LikeRule.decide(id, by: userID, liking: liking, target: target)
            if liking {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO tweet_likes (tweet_id, user_id, created_at) VALUES (?, ?, ?)",
                    arguments: [plan.tweetID, userID, Date().storagePrecision])
            } else {
                try db.execute(
                    sql: "DELETE FROM tweet_likes WHERE tweet_id = ? AND user_id = ?",
                    arguments: [plan.tweetID, userID])
            }
            guard db.changesCount > 0,
                let counts = try TweetRows.adjust(db, plan.tweetID, .likes, by: liking ? 1 : -1)
            else {
                return (try TweetRows.counts(db, id: plan.tweetID) ?? TweetCounts(), [])
            }
            if let author = plan.withdrawsFrom {
                try Interactions.withdraw(db, .like, by: userID, to: author, tweetID: plan.tweetID)
            }
            let notification = try plan.notification.map {
                try Interactions.insert(
                    db, $0, by: try Interactions.account(db, userID),
                    tweet: try TweetRows.fetchOne(db, id: plan.tweetID),
                    at: Date().storagePrecision)
            }
            return (
                counts, LikeRule.events(plan, by: userID, liking: liking, counts: counts, notification: notification)
            )
        }
    }

    /// Walks the (tweetId, id) index back from the cursor.
    public func likers(of id: Int64, page: PageRequest) async throws -> UserPage? {
        try await database.writer.read { db in
            guard let target = try TweetRows.target(db, of: id) else { return nil }
            return try SQLiteConnection.run(db) {
                try await UserPageQuery.fetch(
                    $0, relationshipTable: "tweet_likes", ownerColumn: "tweet_id", personColumn: "user_id",
                    owner: target, page: page)
            }
        }
    }

    /// Every like, repost and bookmark of the reader.
    public func marks(of userID: Int64) async throws -> ReaderMarks {
        try await database.writer.read { db in
            ReaderMarks(
                liked: Set(
                    try Int64.fetchAll(
                        db, sql: "SELECT tweet_id FROM tweet_likes WHERE user_id = ?", arguments: [userID])),
                reposted: Set(
                    try Int64.fetchAll(
                        db, sql: "SELECT repost_of_id FROM tweets WHERE author_id = ? AND repost_of_id IS NOT NULL",
                        arguments: [userID])),
                bookmarked: Set(
                    try Int64.fetchAll(
                        db, sql: "SELECT tweet_id FROM bookmarks WHERE user_id = ?", arguments: [userID])))
        }
    }
}
