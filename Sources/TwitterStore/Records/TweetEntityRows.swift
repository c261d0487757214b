import GRDB
import TwitterCore

/// The tags of one tweet in `tweet_tags`, one row per distinct folded tag: what `tags.tweets`, `#tag` in a
/// search and trending read. Written by a post, by migration v4 for older tweets, and by the seeder.
enum TweetTagRows {
    static func insert(
        _ db: Database, tweetID: Int64, authorID: Int64, createdAt: some DatabaseValueConvertible,
        hashtags: [TweetEntities.Hashtag]
    ) throws {
        for key in Set(hashtags.map { EntityScanner.tagKey($0.tag) }) {
            try db.cachedStatement(
                sql: "INSERT INTO tweet_tags (tag, tweet_id, author_id, created_at) VALUES (?, ?, ?, ?)"
            )
            .execute(arguments: [key, tweetID, authorID, createdAt])
        }
    }
}

/// The accounts one tweet mentions, in `tweet_mentions`: written by a post and by migration v4 for older tweets.
enum TweetMentionRows {
    static func insert(_ db: Database, tweetID: Int64, accountIDs: some Collection<Int64>) throws {
        for accountID in accountIDs {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO tweet_mentions (tweet_id, user_id) VALUES (?, ?)")
                .execute(arguments: [tweetID, accountID])
        }
    }

    /// A column of the usernames `alias`'s tweet mentions, space-separated, as they are now; NULL for none.
    static func usernames(of alias: String) -> String {
        """
        (SELECT group_concat(mentioned.username, ' ') FROM tweet_mentions JOIN users AS mentioned
            ON mentioned.id = tweet_mentions.user_id WHERE tweet_mentions.tweet_id = \(alias).id)
        """
    }
}
