import Foundation
import TwitterCore
import TwitterRules

// @MemberwiseInit
/// Pinned tweets: one row per account that pins one, gone with the tweet or the account.
public struct PinStore: PinStoring {
    let database: any SQLDatabase

    /// Reads the tweet as `PinRule` needs it, then pins it in place of any other, in one transaction.
    public func pin(_ id: Int64, by userID: Int64) async throws {
        try await database.transaction { connection in
            let row = try await connection.firstRow(
                """
                SELECT author_id, repost_of_id IS NOT NULL AS is_repost FROM tweets
                WHERE id = \(id) AND \(AccountStanding.notSuspended("author_id"))
                """)
            let target = try row.map {
                PinRule.Target(authorID: try $0.column("author_id"), isRepost: try $0.column("is_repost"))
            }
            let pinned = try PinRule.decide(id, by: userID, target: target)
            try await connection.run(
                """
                INSERT INTO pinned_tweets (user_id, tweet_id, pinned_at)
                VALUES (\(userID), \(pinned), \(connection.dialect.stored(Date())))
                ON CONFLICT (user_id) DO UPDATE SET tweet_id = excluded.tweet_id, pinned_at = excluded.pinned_at
                """)
        }
    }

    /// Deletes the account's pin, if any.
    public func unpin(by userID: Int64) async throws -> Bool {
        try await database.transaction { connection in
            try await connection.value(
                "DELETE FROM pinned_tweets WHERE user_id = \(userID) RETURNING user_id", as: Int64.self) != nil
        }
    }

    /// The pinned tweet's id, as stored.
    public func pinnedTweetID(of userID: Int64) async throws -> Int64? {
        try await database.read { connection in
            try await connection.value(SQLQuery(PinnedID.self, userID), as: Int64.self)
        }
    }

    /// Read by every profile view, so compiled once a connection.
    private enum PinnedID: SQLText {
        static let sql: SQLQuery = "SELECT tweet_id FROM pinned_tweets WHERE user_id = \(param: 1)"
    }
}
