import GRDB
import TwitterCore

/// The tags of one tweet in `tweetTag`, one row per distinct folded tag: what `tags.tweets`, `#tag` in a
/// search and trending read. Written by a post, by migration v4 for older tweets, and by the seeder.
enum TweetTagRows {
    static func insert(
        _ db: Database, tweetID: Int64, authorID: Int64, createdAt: some DatabaseValueConvertible,
        hashtags: [TweetEntities.Hashtag]
    ) throws {
        for key in Set(hashtags.map { EntityScanner.tagKey($0.tag) }) {
            try db.cachedStatement(sql: "INSERT INTO tweetTag (tag, tweetId, authorId, createdAt) VALUES (?, ?, ?, ?)")
                .execute(arguments: [key, tweetID, authorID, createdAt])
        }
    }
}

/// The accounts one tweet mentions, in `tweetMention`: written by a post and by migration v4 for older tweets.
enum TweetMentionRows {
    static func insert(_ db: Database, tweetID: Int64, accountIDs: some Collection<Int64>) throws {
        for accountID in accountIDs {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO tweetMention (tweetId, userId) VALUES (?, ?)")
                .execute(arguments: [tweetID, accountID])
        }
    }

    /// A column of the usernames `alias`'s tweet mentions, space-separated, as they are now; NULL for none.
    static func usernames(of alias: String) -> String {
        """
        (SELECT group_concat(mentioned.username, ' ') FROM tweetMention JOIN user AS mentioned
            ON mentioned.id = tweetMention.userId WHERE tweetMention.tweetId = \(alias).id)
        """
    }
}
