import Foundation
import TwitterCore
import TwitterRules

/// How tweets are read: each tweet joined with its author, and a repost with its original and the original's
/// author, in one query, never a query per tweet. Tweets of suspended accounts, and reposts of them, are left
/// out by the joins themselves (both authors must be in good standing), so every read of tweets leaves them out.
public enum TweetRows {
    /// `SELECT` of tweets as `tweets`, joined with `joining` when given, followed by `clauses` (WHERE, ORDER BY,
    /// LIMIT).
    public static func select(_ clauses: SQLQuery, joining: String = "") -> SQLQuery {
        """
        SELECT tweets.id, tweets.author_id, author.username, tweets.text, tweets.created_at, tweets.in_reply_to_id,
            tweets.likes_count, tweets.reposts_count, tweets.replies_count, tweets.quotes_count, tweets.quote_of,
            \(mentions(of: "tweets")) AS mentions,
            original.id AS o_id, original.author_id AS o_author_id, original_author.username AS o_username,
            original.text AS o_text, original.created_at AS o_created_at, original.in_reply_to_id AS o_in_reply_to_id,
            original.likes_count AS o_likes, original.reposts_count AS o_reposts, original.replies_count AS o_replies,
            original.quotes_count AS o_quotes, original.quote_of AS o_quote_of,
            CASE WHEN original.id IS NULL THEN NULL ELSE \(mentions(of: "original")) END AS o_mentions
        FROM tweets \(unescaped: joining) JOIN users AS author ON author.id = tweets.author_id AND author.suspended_at IS NULL
        LEFT JOIN tweets AS original ON original.id = tweets.repost_of_id
        JOIN users AS original_author ON original_author.id = COALESCE(original.author_id, tweets.author_id)
            AND original_author.suspended_at IS NULL \(clauses)
        """
    }

    /// A column of the usernames `alias`'s tweet mentions, space-separated, as they are now; NULL for none.
    public static func mentions(of alias: String) -> SQLQuery {
        """
        (SELECT \(function: .stringAggregate)(mentioned.username, ' ') FROM tweet_mentions JOIN users AS mentioned
            ON mentioned.id = tweet_mentions.user_id WHERE tweet_mentions.tweet_id = \(unescaped: alias).id)
        """
    }

    /// The tweet a row of `select` holds.
    public static func tweet(from row: SQLRow) throws -> Tweet {
        var original: Tweet?
        if let originalID = try row.column("o_id", as: Int64?.self) {
            let text = try row.column("o_text", as: String.self)
            original = Tweet(
                id: originalID,
                author: Tweet.Author(id: try row.column("o_author_id"), username: try row.column("o_username")),
                text: text, createdAt: try row.column("o_created_at"),
                inReplyToID: try row.column("o_in_reply_to_id"),
                counts: TweetCounts(
                    likes: try row.column("o_likes", as: Int.self),
                    reposts: try row.column("o_reposts", as: Int.self),
                    replies: try row.column("o_replies", as: Int.self),
                    quotes: try row.column("o_quotes", as: Int.self)),
                entities: entities(text: text, mentions: try row.column("o_mentions")),
                quoteOfID: try row.column("o_quote_of"))
        }
        let text = try row.column("text", as: String.self)
        return Tweet(
            id: try row.column("id"),
            author: Tweet.Author(id: try row.column("author_id"), username: try row.column("username")),
            text: text, createdAt: try row.column("created_at"), inReplyToID: try row.column("in_reply_to_id"),
            counts: TweetCounts(
                likes: try row.column("likes_count", as: Int.self),
                reposts: try row.column("reposts_count", as: Int.self),
                replies: try row.column("replies_count", as: Int.self),
                quotes: try row.column("quotes_count", as: Int.self)),
            repostOf: original, entities: entities(text: text, mentions: try row.column("mentions")),
            quoteOfID: try row.column("quote_of"))
    }

    /// The entities of a stored text: found again from the text, keeping the mentions of the accounts it was
    /// posted mentioning, under the names they have now.
    public static func entities(text: String, mentions: String?) -> TweetEntities {
        TweetEntities(of: text, mentioned: mentions.map { $0.split(separator: " ").map(String.init) } ?? [])
    }

    /// The tweets `query` (a `select`) returns.
    public static func fetchAll(_ connection: any SQLConnection, _ query: SQLQuery) async throws -> [Tweet] {
        try await connection.rows(query).map(tweet(from:))
    }

    /// Tweet `id`, unless it (or its original) is a suspended account's.
    public static func fetchOne(_ connection: any SQLConnection, id: Int64) async throws -> Tweet? {
        try await connection.firstRow(SQLQuery(ByID.self, id)).map(tweet(from:))
    }

    private enum ByID: SQLText {
        static let sql: SQLQuery = TweetRows.select("WHERE tweets.id = \(param: 1)")
    }

    /// The tweets whose ids are `ids`, in no particular order.
    public static func fetchAll(_ connection: any SQLConnection, ids: [Int64]) async throws -> [Tweet] {
        guard !ids.isEmpty else { return [] }
        return try await connection.rows(SQLQuery(ByIDs.self, ids)).map(tweet(from:))
    }

    private enum ByIDs: SQLText {
        static let sql: SQLQuery = TweetRows.select("WHERE tweets.id \(isInParam: 1)")
    }

    /// The counts of tweet `id` as stored now.
    public static func counts(_ connection: any SQLConnection, id: Int64) async throws -> TweetCounts? {
        try await connection.firstRow(SQLQuery(Counts.self, id)).map(countsOf)
    }

    private enum Counts: SQLText {
        static let sql: SQLQuery =
            "SELECT likes_count, reposts_count, replies_count, quotes_count FROM tweets WHERE id = \(param: 1)"
    }

    /// The counts a row of `likes_count, reposts_count, replies_count, quotes_count` holds.
    public static func countsOf(_ row: SQLRow) throws -> TweetCounts {
        TweetCounts(
            likes: try row.column("likes_count", as: Int.self),
            reposts: try row.column("reposts_count", as: Int.self),
            replies: try row.column("replies_count", as: Int.self),
            quotes: try row.column("quotes_count", as: Int.self))
    }

    /// A tweet's counters.
    public typealias Counter = TweetCounter

    /// Moves one counter of tweet `id` by `change` and returns its counts after; nil when the tweet is gone.
    public static func adjust(_ connection: any SQLConnection, _ id: Int64, _ counter: Counter, by change: Int)
        async throws -> TweetCounts?
    {
        let row =
            switch counter {
            case .replies: try await connection.firstRow(SQLQuery(Adjust<RepliesCount>.self, change, id))
            case .reposts: try await connection.firstRow(SQLQuery(Adjust<RepostsCount>.self, change, id))
            case .likes: try await connection.firstRow(SQLQuery(Adjust<LikesCount>.self, change, id))
            case .quotes: try await connection.firstRow(SQLQuery(Adjust<QuotesCount>.self, change, id))
            }
        return try row.map(countsOf)
    }

    /// A counter's column, named by a type so that each counter's update is a prepared statement of its own (a
    /// column's name cannot be a value).
    protocol CounterColumn { static var column: TweetCounter { get } }
    enum RepliesCount: CounterColumn { static let column = TweetCounter.replies }
    enum RepostsCount: CounterColumn { static let column = TweetCounter.reposts }
    enum LikesCount: CounterColumn { static let column = TweetCounter.likes }
    enum QuotesCount: CounterColumn { static let column = TweetCounter.quotes }

    /// Moves `Counter` by `$1`, never below 0, on tweet `$2`; its counts after.
    private enum Adjust<Counter: CounterColumn>: SQLText {
        static var sql: SQLQuery {
            let column = Counter.column.column
            return """
                UPDATE tweets SET \(unescaped: column) = \(function: .greatest)(0, \(unescaped: column) + \(param: 1))
                WHERE id = \(param: 2) RETURNING likes_count, reposts_count, replies_count, quotes_count
                """
        }
    }

    /// The id a like, repost or reply of `id` goes to: the original when `id` is a repost; nil when missing, and
    /// when it or its original is a suspended account's, which is as if absent.
    public static func target(_ connection: any SQLConnection, of id: Int64) async throws -> Int64? {
        try await connection.value(SQLQuery(Target.self, id), as: Int64.self)
    }

    private enum Target: SQLText {
        static let sql: SQLQuery = """
            SELECT COALESCE(tweets.repost_of_id, tweets.id) FROM tweets
            LEFT JOIN tweets AS original ON original.id = tweets.repost_of_id
            WHERE tweets.id = \(param: 1) AND \(AccountStanding.notSuspended("tweets.author_id"))
                AND (original.id IS NULL OR \(AccountStanding.notSuspended("original.author_id")))
            """
    }

    /// The clause leaving out the tweets, and the reposts of the tweets, of `hiding`; nil when it is empty.
    public static func hidingClause(_ hiding: Set<Int64>) -> SQLQuery? {
        guard !hiding.isEmpty else { return nil }
        let list = hiding.sorted()
        return
            "NOT tweets.author_id \(isIn: list) AND (original.author_id IS NULL OR NOT original.author_id \(isIn: list))"
    }

    /// The condition selecting the tweets of `timeline`, its values bound; nil for everyone's.
    public static func filter(_ timeline: Timeline) -> SQLQuery? {
        switch timeline {
        case .tag(let key):
            "tweets.id IN (SELECT tweet_id FROM tweet_tags WHERE tag = \(key))"
        case .everyone:
            nil
        case .author(let id):
            "tweets.author_id = \(id)"
        case .home(let id):
            // Off the author index on SQLite (`SQLDialect.unindexed`): with it, SQLite fetched every tweet of every
            // followed account and sorted them (seconds for a follower of an account with 500k tweets); without
            // it, it walks the tweets newest first and stops at the page's end.
            """
            (\(unindexed: "tweets.author_id") = \(id)
                OR \(unindexed: "tweets.author_id") IN (SELECT followee_id FROM follows WHERE follower_id = \(id)))
            """
        case .list(let id):
            // Off the author index for the same reason as home's: newest first, stopping at the page's end.
            "\(unindexed: "tweets.author_id") IN (SELECT member_id FROM list_members WHERE list_id = \(id))"
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
