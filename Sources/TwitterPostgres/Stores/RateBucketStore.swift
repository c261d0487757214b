import Foundation
import PostgresNIO
import TwitterCore
import TwitterSQL

/// Write rate buckets in PostgreSQL, one row per account and action.
struct RateBucketStore: RateBucketStoring {
    let database: PostgresStore

    /// Unknown actions (written by a later version) are skipped.
    func allBuckets() async throws -> [(userID: Int64, action: RateLimitedAction, bucket: TokenBucket)] {
        try await database.read { connection in
            try await connection.rows("SELECT user_id, action, tokens, updated_at FROM rate_buckets").compactMap {
                row in
                guard let action = RateLimitedAction(rawValue: try row.column("action")) else { return nil }
                return (
                    userID: try row.column("user_id", as: Int64.self), action: action,
                    bucket: TokenBucket(tokens: try row.column("tokens"), updatedAt: try row.column("updated_at"))
                )
            }
        }
    }

    /// Upserts every bucket in one statement, from arrays unnested side by side; a bucket of a deleted account
    /// is skipped rather than failing the others (the daemon saves buckets while accounts come and go). Dates
    /// are kept to the millisecond (`SQLDialect.stored`).
    func save(_ buckets: [(userID: Int64, action: RateLimitedAction, bucket: TokenBucket)]) async throws {
        guard !buckets.isEmpty else { return }
        // One row per bucket, the last given winning as in the SQLite store's statement run once per entry:
        // an upsert may not touch a row twice.
        var latest: [String: Int] = [:]
        for (index, entry) in buckets.enumerated() { latest["\(entry.userID) \(entry.action.rawValue)"] = index }
        let buckets = latest.values.sorted().map { buckets[$0] }
        let userIDs = buckets.map(\.userID)
        let actions = buckets.map(\.action.rawValue)
        let tokens = buckets.map(\.bucket.tokens)
        let dates = buckets.map(\.bucket.updatedAt).map(SQLDialect.postgres.stored)
        try await database.transaction { connection in
            try await connection.run(
                """
                INSERT INTO rate_buckets (user_id, action, tokens, updated_at)
                SELECT bucket.user_id, bucket.action, bucket.tokens, bucket.updated_at
                FROM unnest(\(userIDs)::bigint[], \(actions)::text[], \(tokens)::float8[], \(dates)::timestamptz[])
                    AS bucket (user_id, action, tokens, updated_at)
                WHERE EXISTS(SELECT 1 FROM users WHERE users.id = bucket.user_id)
                ON CONFLICT (user_id, action) DO UPDATE SET tokens = excluded.tokens, updated_at = excluded.updated_at
                """)
        }
    }

    /// Reads the signup buckets.
    func allSignupBuckets() async throws -> [(uid: UInt32, bucket: TokenBucket)] {
        try await database.read { connection in
            try await connection.rows("SELECT uid, tokens, updated_at FROM signup_buckets").compactMap { row in
                guard let uid = UInt32(exactly: try row.column("uid", as: Int64.self)) else { return nil }
                return (
                    uid: uid,
                    bucket: TokenBucket(tokens: try row.column("tokens"), updatedAt: try row.column("updated_at"))
                )
            }
        }
    }

    /// Upserts every signup bucket in one statement, the last given for a uid winning.
    func saveSignupBuckets(_ buckets: [(uid: UInt32, bucket: TokenBucket)]) async throws {
        guard !buckets.isEmpty else { return }
        var latest: [UInt32: Int] = [:]
        for (index, entry) in buckets.enumerated() { latest[entry.uid] = index }
        let buckets = latest.values.sorted().map { buckets[$0] }
        let uids = buckets.map { Int64($0.uid) }
        let tokens = buckets.map(\.bucket.tokens)
        let dates = buckets.map(\.bucket.updatedAt).map(SQLDialect.postgres.stored)
        try await database.transaction { connection in
            try await connection.run(
                """
                INSERT INTO signup_buckets (uid, tokens, updated_at)
                SELECT bucket.uid, bucket.tokens, bucket.updated_at
                FROM unnest(\(uids)::bigint[], \(tokens)::float8[], \(dates)::timestamptz[]) AS bucket (uid, tokens, updated_at)
                ON CONFLICT (uid) DO UPDATE SET tokens = excluded.tokens, updated_at = excluded.updated_at
                """)
        }
    }
}
