import Foundation
import PostgresNIO
import TwitterCore

/// Likes in PostgreSQL.
struct LikeStore: LikeStoring {
    let database: PostgresStore
    let observer: any TweetCommitObserving

    func like(_ id: Int64, by userID: Int64) async throws -> TweetCounts {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func unlike(_ id: Int64, by userID: Int64) async throws -> TweetCounts {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func likers(of id: Int64, page: PageRequest) async throws -> UserPage? {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func marks(of userID: Int64) async throws -> ReaderMarks {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }
}
