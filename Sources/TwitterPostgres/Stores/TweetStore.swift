import Foundation
import PostgresNIO
import TwitterCore

/// Tweets, reposts, timelines and threads in PostgreSQL.
struct TweetStore: TweetStoring {
    let database: PostgresStore
    let observer: any TweetCommitObserving

    func post(_ draft: PostDraft) -> @Sendable () async throws -> Tweet {
        { throw TwitterError(.internal, "not on PostgreSQL yet") }
    }

    func repost(_ id: Int64, by userID: Int64) -> @Sendable () async throws -> Tweet {
        { throw TwitterError(.internal, "not on PostgreSQL yet") }
    }

    func unrepost(_ id: Int64, by userID: Int64) async throws -> Bool {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func deleteTweet(id: Int64, by userID: Int64) async throws {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func tweets(_ query: TweetQuery) async throws -> [Tweet] {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func tweet(id: Int64) async throws -> Tweet? {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func tweets(after sinceID: Int64, in timeline: Timeline, limit: Int) async throws -> [Tweet] {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func thread(of id: Int64, descendantLimit: Int) async throws -> ThreadRows? {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }
}
