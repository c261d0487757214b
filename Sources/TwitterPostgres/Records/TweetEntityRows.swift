import Foundation
import PostgresNIO
import TwitterCore

/// The tags of a batch's tweets in `tweet_tag`, one row per distinct folded tag of each tweet: what
/// `tags.tweets`, `#tag` in a search and trending read. One statement for the whole batch.
enum TweetTagRows {
    /// One tweet's tags.
    struct Tagged {
        let tweetID: Int64
        let authorID: Int64
        let hashtags: [TweetEntities.Hashtag]
    }

    static func insert(_ connection: PostgresConnection, _ tweets: [Tagged], createdAt: Date) async throws {
        var tags: [String] = []
        var tweetIDs: [Int64] = []
        var authorIDs: [Int64] = []
        for tweet in tweets {
            for key in Set(tweet.hashtags.map { EntityScanner.tagKey($0.tag) }) {
                tags.append(key)
                tweetIDs.append(tweet.tweetID)
                authorIDs.append(tweet.authorID)
            }
        }
        guard !tags.isEmpty else { return }
        try await connection.run(Prepared<Insert>(tags, tweetIDs, authorIDs, createdAt))
    }

    enum Insert: PreparedText {
        static let sql = """
            INSERT INTO tweet_tags (tag, tweet_id, author_id, created_at)
            SELECT tag, tweet_id, author_id, $4
            FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS batch(tag, tweet_id, author_id)
            """
    }
}

/// The accounts a batch's tweets mention, in `tweet_mention`: one statement for the whole batch.
enum TweetMentionRows {
    static func insert(_ connection: PostgresConnection, _ mentions: [(tweetID: Int64, accountID: Int64)]) async throws
    {
        guard !mentions.isEmpty else { return }
        try await connection.run(Prepared<Insert>(mentions.map(\.tweetID), mentions.map(\.accountID)))
    }

    enum Insert: PreparedText {
        static let sql = """
            INSERT INTO tweet_mentions (tweet_id, user_id)
            SELECT * FROM unnest($1::bigint[], $2::bigint[])
            ON CONFLICT DO NOTHING
            """
    }
}
