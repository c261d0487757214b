import Foundation
import GRDB
import TwitterCore
import TwitterSQL
import TwitterRules

/// How tweets are read: each tweet joined with its author, and a repost with its original and the original's
/// author, in one query, never a query per tweet.
///
/// Posts are written with plain INSERTs by the committer, so this is not a persistable record.
enum TweetRows {
    /// `SELECT` of tweets as `tweets`, joined with `joining` when given, followed by `clauses` (WHERE, ORDER BY,
    /// LIMIT). Tweets of suspended accounts, and reposts of them, are left out by the joins themselves: the author
    /// must be in good standing, and so must the original's author (for a tweet that is no repost,
    /// `originalAuthor` is its own author again, already checked), so every read of tweets leaves them out.
    static func select(_ clauses: String, joining: String = "") -> String {
        """
        SELECT tweets.id, tweets.author_id, users.username, tweets.text, tweets.created_at, tweets.in_reply_to_id,
            tweets.likes_count, tweets.reposts_count, tweets.replies_count, tweets.quotes_count, tweets.quote_of,
            \(TweetMentionRows.usernames(of: "tweets")) AS mentions,
            original.id AS oId, original.author_id AS oAuthorId, originalAuthor.username AS oUsername,
            original.text AS oText, original.created_at AS oCreatedAt, original.in_reply_to_id AS oInReplyToId,
            original.likes_count AS oLikes, original.reposts_count AS oReposts, original.replies_count AS oReplies,
            original.quotes_count AS oQuotes, original.quote_of AS oQuoteOf,
            CASE WHEN original.id IS NULL THEN NULL ELSE \(TweetMentionRows.usernames(of: "original")) END AS oMentions
        FROM tweets \(joining) JOIN users ON users.id = tweets.author_id AND users.suspended_at IS NULL
        LEFT JOIN tweets AS original ON original.id = tweets.repost_of_id
        JOIN users AS originalAuthor ON originalAuthor.id = COALESCE(original.author_id, tweets.author_id)
            AND originalAuthor.suspended_at IS NULL \(clauses)
        """
    }

    static func tweet(from row: Row) -> Tweet {
        var original: Tweet?
        if let originalID: Int64 = row["oId"] {
            original = Tweet(
                id: originalID, author: Tweet.Author(id: row["oAuthorId"], username: row["oUsername"]),
                text: row["oText"], createdAt: row["oCreatedAt"], inReplyToID: row["oInReplyToId"],
                counts: TweetCounts(
                    likes: row["oLikes"], reposts: row["oReposts"], replies: row["oReplies"], quotes: row["oQuotes"]),
                entities: entities(text: row["oText"], mentions: row["oMentions"]), quoteOfID: row["oQuoteOf"])
        }
        return Tweet(
            id: row["id"], author: Tweet.Author(id: row["author_id"], username: row["username"]), text: row["text"],
            createdAt: row["created_at"], inReplyToID: row["in_reply_to_id"],
            counts: TweetCounts(
                likes: row["likes_count"], reposts: row["reposts_count"], replies: row["replies_count"],
                quotes: row["quotes_count"]),
            repostOf: original, entities: entities(text: row["text"], mentions: row["mentions"]),
            quoteOfID: row["quote_of"])
    }

    /// The entities of a stored text: found again from the text, keeping the mentions of the accounts it was
    /// posted mentioning, under the names they have now.
    static func entities(text: String, mentions: String?) -> TweetEntities {
        TweetEntities(of: text, mentioned: mentions.map { $0.split(separator: " ").map(String.init) } ?? [])
    }

    /// Reads the tweets `sql` selects; a statement used once (one with hidden ids written in) is not cached.
    static func fetchAll(
        _ db: Database, _ sql: String, _ arguments: StatementArguments, cached: Bool = true, joining: String = ""
    ) throws -> [Tweet] {
        let sql = select(sql, joining: joining)
        let statement = cached ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        return try Row.fetchAll(statement, arguments: arguments).map(tweet(from:))
    }

    /// Reads tweet `id`.
    static func fetchOne(_ db: Database, id: Int64) throws -> Tweet? {
        try Row.fetchOne(db.cachedStatement(sql: select("WHERE tweets.id = ?")), arguments: [id]).map(tweet(from:))
    }

    /// The counts of tweet `id` as stored now.
    static func counts(_ db: Database, id: Int64) throws -> TweetCounts? {
        let sql = "SELECT likes_count, reposts_count, replies_count, quotes_count FROM tweets WHERE id = ?"
        return try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [id]).map {
            TweetCounts(
                likes: $0["likes_count"], reposts: $0["reposts_count"], replies: $0["replies_count"],
                quotes: $0["quotes_count"])
        }
    }

    /// A tweet's counters.
    typealias Counter = TweetCounter

    /// Moves one counter of tweet `id` by `change` and returns its counts after; nil when the tweet is gone.
    static func adjust(_ db: Database, _ id: Int64, _ counter: Counter, by change: Int) throws -> TweetCounts? {
        let column = counter.column
        try db.cachedStatement(sql: "UPDATE tweets SET \(column) = MAX(0, \(column) + ?) WHERE id = ?")
            .execute(arguments: [change, id])
        return try counts(db, id: id)
    }

    /// The id a like, repost or reply of `id` goes to: the original when `id` is a repost; nil when missing, and
    /// when it or its original is a suspended account's, which is as if absent.
    static func target(_ db: Database, of id: Int64) throws -> Int64? {
        try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT COALESCE(tweets.repost_of_id, tweets.id) FROM tweets
                    LEFT JOIN tweets AS original ON original.id = tweets.repost_of_id
                    WHERE tweets.id = ? AND \(AccountStanding.notSuspended("tweets.author_id"))
                        AND (original.id IS NULL OR \(AccountStanding.notSuspended("original.author_id")))
                    """), arguments: [id])
    }

    /// The clause leaving out the tweets, and the reposts of the tweets, of `hiding`; nil when it is empty.
    /// The ids are numbers, written into the SQL rather than bound, so any count of them takes one statement.
    static func hidingClause(_ hiding: Set<Int64>) -> String? {
        guard !hiding.isEmpty else { return nil }
        let list = hiding.sorted().map(String.init).joined(separator: ",")
        return
            "tweets.author_id NOT IN (\(list)) AND (original.author_id IS NULL OR original.author_id NOT IN (\(list)))"
    }

    /// The clause selecting the tweets of `timeline`, with its arguments.
    static func filter(_ timeline: Timeline) -> (condition: String?, arguments: StatementArguments) {
        switch timeline {
        case .tag(let key):
            ("tweets.id IN (SELECT tweet_id FROM tweet_tags WHERE tag = ?)", [key])
        case .everyone:
            (nil, [])
        case .author(let id):
            ("tweets.author_id = ?", [id])
        case .home(let id):
            // The unary plus keeps SQLite off the author index: with it, SQLite fetched every tweet of every
            // followed account and sorted them (seconds for a follower of an account with 500k tweets);
            // without it, it walks the tweets newest first and stops at the page's end.
            (
                "(+tweets.author_id = ? OR +tweets.author_id IN (SELECT followee_id FROM follows WHERE follower_id = ?))",
                [id, id]
            )
        case .list(let id):
            // Off the author index for the same reason as home's: newest first, stopping at the page's end.
            ("+tweets.author_id IN (SELECT member_id FROM list_members WHERE list_id = ?)", [id])
        }
    }
}

extension TweetCounter {
    /// The column of `tweets` that holds it.
    var column: String {
        switch self {
        case .replies: "replies_count"
        case .reposts: "reposts_count"
        case .likes: "likes_count"
        case .quotes: "quotes_count"
        }
    }
}
