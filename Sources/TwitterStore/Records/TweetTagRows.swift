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
