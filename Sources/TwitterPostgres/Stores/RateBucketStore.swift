import Foundation
import PostgresNIO
import TwitterCore

/// Write rate buckets in PostgreSQL.
struct RateBucketStore: RateBucketStoring {
    let database: PostgresStore

    func allBuckets() async throws -> [(userID: Int64, action: RateLimitedAction, bucket: TokenBucket)] {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func save(_ buckets: [(userID: Int64, action: RateLimitedAction, bucket: TokenBucket)]) async throws {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }
}
