import Foundation
import PostgresNIO
import TwitterCore

/// The follow graph in PostgreSQL.
struct FollowStore: FollowStoring {
    let database: PostgresStore
    let observer: any TweetCommitObserving

    func follow(_ followeeID: Int64, by followerID: Int64) async throws -> Bool {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func unfollow(_ followeeID: Int64, by followerID: Int64) async throws -> Bool {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func followers(of userID: Int64, page: PageRequest) async throws -> UserPage {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func following(of userID: Int64, page: PageRequest) async throws -> UserPage {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func followeeIDs(of userID: Int64) async throws -> Set<Int64> {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func overview(of username: String, viewerID: Int64) async throws -> UserOverview? {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }
}
