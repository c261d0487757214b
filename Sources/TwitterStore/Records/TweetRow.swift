import Foundation
import GRDB
import TwitterCore

/// How tweets are read: the tweet joined with its author's username in one query, never a query per tweet.
///
/// Posts are written with plain INSERTs by the committer, so this is not a persistable record.
enum TweetRow {
    /// `SELECT` of a tweet and its author, followed by `clauses` (WHERE, ORDER BY, LIMIT).
    static func select(_ clauses: String) -> String {
        """
        SELECT tweet.id, tweet.authorId, tweet.text, tweet.createdAt, user.username
        FROM tweet JOIN user ON user.id = tweet.authorId \(clauses)
        """
    }

    static func tweet(from row: Row) -> Tweet {
        Tweet(
            id: row["id"], author: Tweet.Author(id: row["authorId"], username: row["username"]), text: row["text"],
            createdAt: row["createdAt"]
        )
    }
}
