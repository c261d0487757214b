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
            try Row.fetchAll(db, sql: "SELECT userId, action, tokens, updatedAt FROM rateBucket").compactMap { row in
                RateLimitedAction(rawValue: row["action"]).map {
                    (
                        userID: row["userId"], action: $0,
                        bucket: TokenBucket(tokens: row["tokens"], updatedAt: row["updatedAt"])
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
                    INSERT INTO rateBucket (userId, action, tokens, updatedAt)
                    SELECT ?1, ?2, ?3, ?4 WHERE EXISTS(SELECT 1 FROM user WHERE id = ?1)
                    ON CONFLICT (userId, action) DO UPDATE SET tokens = excluded.tokens, updatedAt = excluded.updatedAt
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
            try Row.fetchAll(db, sql: "SELECT uid, tokens, updatedAt FROM signupBucket").compactMap { row in
                guard let uid = UInt32(exactly: row["uid"] as Int64) else { return nil }
                return (uid: uid, bucket: TokenBucket(tokens: row["tokens"], updatedAt: row["updatedAt"]))
            }
        }
    }

    /// Upserts every signup bucket in one transaction.
    public func saveSignupBuckets(_ buckets: [(uid: UInt32, bucket: TokenBucket)]) async throws {
        guard !buckets.isEmpty else { return }
        try await database.writer.write { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO signupBucket (uid, tokens, updatedAt) VALUES (?, ?, ?)
                    ON CONFLICT (uid) DO UPDATE SET tokens = excluded.tokens, updatedAt = excluded.updatedAt
                    """)
            for entry in buckets {
                try statement.execute(arguments: [Int64(entry.uid), entry.bucket.tokens, entry.bucket.updatedAt])
            }
        }
    }
}
