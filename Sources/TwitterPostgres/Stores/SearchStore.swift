import Foundation
import PostgresNIO
import TwitterCore

/// Search in PostgreSQL.
struct SearchStore: TweetSearching {
    let database: PostgresStore

    func search(_ query: SearchQuery, authorID: Int64?, hiding: Set<Int64>, limit: Int, from position: SearchPosition)
        async throws -> SearchResults
    {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func users(withPrefix prefix: String, hiding: Set<Int64>, limit: Int) async throws -> [UserSummary] {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func trending(since: Date, limit: Int) async throws -> [TrendingTag] {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }
}
