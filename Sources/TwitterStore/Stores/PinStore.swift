import Foundation
import GRDB
import TwitterCore
import TwitterRules

/// Pinned tweets in SQLite: one row per account that pins one, gone with the tweet or the account.
public struct PinStore: PinStoring {
    let database: AppDatabase

    /// Creates the store.
    public init(database: AppDatabase) {
        self.database = database
    }

    /// Reads the tweet as `PinRule` needs it, then pins it in place of any other.
    public func pin(_ id: Int64, by userID: Int64) async throws {
        try await database.writer.write { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT author_id, repost_of_id IS NOT NULL AS is_repost FROM tweets
                    WHERE id = ? AND \(AccountStanding.notSuspended("author_id"))
                    """, arguments: [id])
            let target = row.map { PinRule.Target(authorID: $0["author_id"], isRepost: $0["is_repost"]) }
            let pinned = try PinRule.decide(id, by: userID, target: target)
            try db.execute(
                sql: """
                    INSERT INTO pinned_tweets (user_id, tweet_id, pinned_at) VALUES (?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET tweet_id = excluded.tweet_id, pinned_at = excluded.pinned_at
                    """, arguments: [userID, pinned, Date().storagePrecision])
        }
    }

    /// Deletes the account's pin, if any.
    public func unpin(by userID: Int64) async throws -> Bool {
        try await database.writer.write { db in
            try db.execute(sql: "DELETE FROM pinned_tweets WHERE user_id = ?", arguments: [userID])
            return db.changesCount > 0
        }
    }

    /// The pinned tweet's id, as stored.
    public func pinnedTweetID(of userID: Int64) async throws -> Int64? {
        try await database.writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT tweet_id FROM pinned_tweets WHERE user_id = ?", arguments: [userID])
        }
    }
}
