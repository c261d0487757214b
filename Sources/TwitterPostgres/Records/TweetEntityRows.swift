import Foundation
import PostgresNIO
import TwitterCore

/// The tags of one tweet in `tweet_tag`, one row per distinct folded tag: what `tags.tweets`, `#tag` in a
/// search and trending read.
enum TweetTagRows {
    static func insert(
        _ connection: PostgresConnection, tweetID: Int64, authorID: Int64, createdAt: Date,
        hashtags: [TweetEntities.Hashtag]
    ) async throws {
        for key in Set(hashtags.map { EntityScanner.tagKey($0.tag) }) {
            try await connection.run(
                """
                INSERT INTO tweet_tags (tag, tweet_id, author_id, created_at)
                VALUES (\(key), \(tweetID), \(authorID), \(createdAt))
                """)
        }
    }
}

/// The accounts one tweet mentions, in `tweet_mention`.
enum TweetMentionRows {
    static func insert(_ connection: PostgresConnection, tweetID: Int64, accountIDs: some Collection<Int64>)
        async throws
    {
        for accountID in accountIDs {
            try await connection.run(
                "INSERT INTO tweet_mentions (tweet_id, user_id) VALUES (\(tweetID), \(accountID)) ON CONFLICT DO NOTHING"
            )
        }
    }
}
