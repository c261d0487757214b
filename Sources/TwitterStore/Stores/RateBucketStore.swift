import Foundation
import GRDB
import TwitterCore

/// Rate buckets in SQLite, one row per account and action.
public struct RateBucketStore: RateBucketStoring {
    let database: AppDatabase

    /// Creates the store.
    public init(database: AppDatabase) {
        self.database = database
    }

    /// Reads the table; unknown actions (from a later version) are skipped.
    public func allBuckets() async throws -> [(userID: Int64, action: RateLimitedAction, bucket: TokenBucket)] {
        try await database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT user_id, action, tokens, updated_at FROM rate_buckets").compactMap {
                row in
                RateLimitedAction(rawValue: row["action"]).map {
                    (
                        userID: row["user_id"], action: $0,
                        bucket: TokenBucket(tokens: row["tokens"], updatedAt: row["updated_at"])
                    )
                }
            }
        }
    }

    /// Upserts every bucket in one transaction; a bucket of a deleted account is skipped.
    public func save(_ buckets: [(userID: Int64, action: RateLimitedAction, bucket: TokenBucket)]) async throws {
        guard !buckets.isEmpty else { return }
        try await database.writer.write { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO rate_buckets (user_id, action, tokens, updated_at)
                    SELECT ?1, ?2, ?3, ?4 WHERE EXISTS(SELECT 1 FROM users WHERE id = ?1)
                    ON CONFLICT (user_id, action) DO UPDATE SET tokens = excluded.tokens, updated_at = excluded.updated_at
                    """)
            for entry in buckets {
                try statement.execute(
                    arguments: [entry.userID, entry.action.rawValue, entry.bucket.tokens, entry.bucket.updatedAt])
            }
        }
    }

    /// Reads the signup buckets.
    public func allSignupBuckets() async throws -> [(uid: UInt32, bucket: TokenBucket)] {
        try await database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT uid, tokens, updated_at FROM signup_buckets").compactMap { row in
                guard let uid = UInt32(exactly: row["uid"] as Int64) else { return nil }
                return (uid: uid, bucket: TokenBucket(tokens: row["tokens"], updatedAt: row["updated_at"]))
            }
        }
    }

    /// Upserts every signup bucket in one transaction.
    public func saveSignupBuckets(_ buckets: [(uid: UInt32, bucket: TokenBucket)]) async throws {
        guard !buckets.isEmpty else { return }
        try await database.writer.write { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO signup_buckets (uid, tokens, updated_at) VALUES (?, ?, ?)
                    ON CONFLICT (uid) DO UPDATE SET tokens = excluded.tokens, updated_at = excluded.updated_at
                    """)
            for entry in buckets {
                try statement.execute(arguments: [Int64(entry.uid), entry.bucket.tokens, entry.bucket.updatedAt])
            }
        }
    }
}
