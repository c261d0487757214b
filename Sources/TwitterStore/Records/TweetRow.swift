import Foundation
import GRDB
import TwitterCore

/// A row of `tweet`, joined with its author's username when read.
struct TweetRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "tweet"

    var id: Int64?
    var authorId: Int64
    var text: String
    var createdAt: Date
    var idempotencyKey: String?

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The columns a feed read selects: one query with a join, never a query per tweet.
    static let feedSelection = "tweet.id, tweet.authorId, tweet.text, tweet.createdAt, user.username"

    static func tweet(from row: Row) -> Tweet {
        Tweet(
            id: row["id"], author: Tweet.Author(id: row["authorId"], username: row["username"]), text: row["text"],
            createdAt: row["createdAt"]
        )
    }
}
