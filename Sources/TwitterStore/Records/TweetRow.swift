import Foundation
import GRDB
import TwitterCore
import TwitterRules

/// How tweets are read: each tweet joined with its author, and a repost with its original and the original's
/// author, in one query, never a query per tweet.
///
/// Posts are written with plain INSERTs by the committer, so this is not a persistable record.
enum TweetRow {
    /// `SELECT` of tweets as `tweet`, joined with `joining` when given, followed by `clauses` (WHERE, ORDER BY,
    /// LIMIT). Tweets of suspended accounts, and reposts of them, are left out by the joins themselves: the author
    /// must be in good standing, and so must the original's author (for a tweet that is no repost,
    /// `originalAuthor` is its own author again, already checked), so every read of tweets leaves them out.
    static func select(_ clauses: String, joining: String = "") -> String {
        """
        SELECT tweet.id, tweet.authorId, user.username, tweet.text, tweet.createdAt, tweet.inReplyToId,
            tweet.likesCount, tweet.repostsCount, tweet.repliesCount, \(TweetMentionRows.usernames(of: "tweet")) AS mentions,
            original.id AS oId, original.authorId AS oAuthorId, originalAuthor.username AS oUsername,
            original.text AS oText, original.createdAt AS oCreatedAt, original.inReplyToId AS oInReplyToId,
            original.likesCount AS oLikes, original.repostsCount AS oReposts, original.repliesCount AS oReplies,
            CASE WHEN original.id IS NULL THEN NULL ELSE \(TweetMentionRows.usernames(of: "original")) END AS oMentions
        FROM tweet \(joining) JOIN user ON user.id = tweet.authorId AND user.suspendedAt IS NULL
        LEFT JOIN tweet AS original ON original.id = tweet.repostOfId
        JOIN user AS originalAuthor ON originalAuthor.id = COALESCE(original.authorId, tweet.authorId)
            AND originalAuthor.suspendedAt IS NULL \(clauses)
        """
    }

    static func tweet(from row: Row) -> Tweet {
        var original: Tweet?
        if let originalID: Int64 = row["oId"] {
            original = Tweet(
                id: originalID, author: Tweet.Author(id: row["oAuthorId"], username: row["oUsername"]),
                text: row["oText"], createdAt: row["oCreatedAt"], inReplyToID: row["oInReplyToId"],
                counts: TweetCounts(likes: row["oLikes"], reposts: row["oReposts"], replies: row["oReplies"]),
                entities: entities(text: row["oText"], mentions: row["oMentions"]))
        }
        return Tweet(
            id: row["id"], author: Tweet.Author(id: row["authorId"], username: row["username"]), text: row["text"],
            createdAt: row["createdAt"], inReplyToID: row["inReplyToId"],
            counts: TweetCounts(likes: row["likesCount"], reposts: row["repostsCount"], replies: row["repliesCount"]),
            repostOf: original, entities: entities(text: row["text"], mentions: row["mentions"]))
    }

    /// The entities of a stored text: found again from the text, keeping the mentions of the accounts it was
    /// posted mentioning, under the names they have now.
    static func entities(text: String, mentions: String?) -> TweetEntities {
        TweetEntities(of: text, mentioned: mentions.map { $0.split(separator: " ").map(String.init) } ?? [])
    }

    /// Reads the tweets `sql` selects; a statement used once (one with hidden ids written in) is not cached.
    static func fetchAll(_ db: Database, _ sql: String, _ arguments: StatementArguments, cached: Bool = true) throws
        -> [Tweet]
    {
        let statement = cached ? try db.cachedStatement(sql: select(sql)) : try db.makeStatement(sql: select(sql))
        return try Row.fetchAll(statement, arguments: arguments).map(tweet(from:))
    }

    /// Reads tweet `id`.
    static func fetchOne(_ db: Database, id: Int64) throws -> Tweet? {
        try Row.fetchOne(db.cachedStatement(sql: select("WHERE tweet.id = ?")), arguments: [id]).map(tweet(from:))
    }

    /// The counts of tweet `id` as stored now.
    static func counts(_ db: Database, id: Int64) throws -> TweetCounts? {
        let sql = "SELECT likesCount, repostsCount, repliesCount FROM tweet WHERE id = ?"
        return try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [id]).map {
            TweetCounts(likes: $0["likesCount"], reposts: $0["repostsCount"], replies: $0["repliesCount"])
        }
    }

    /// A tweet's counters.
    typealias Counter = TweetCounter

    /// Moves one counter of tweet `id` by `change` and returns its counts after; nil when the tweet is gone.
    static func adjust(_ db: Database, _ id: Int64, _ counter: Counter, by change: Int) throws -> TweetCounts? {
        let column = counter.column
        try db.cachedStatement(sql: "UPDATE tweet SET \(column) = MAX(0, \(column) + ?) WHERE id = ?")
            .execute(arguments: [change, id])
        return try counts(db, id: id)
    }

    /// The id a like, repost or reply of `id` goes to: the original when `id` is a repost; nil when missing, and
    /// when it or its original is a suspended account's, which is as if absent.
    static func target(_ db: Database, of id: Int64) throws -> Int64? {
        try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT COALESCE(tweet.repostOfId, tweet.id) FROM tweet
                    LEFT JOIN tweet AS original ON original.id = tweet.repostOfId
                    WHERE tweet.id = ? AND \(AccountStanding.notSuspended("tweet.authorId"))
                        AND (original.id IS NULL OR \(AccountStanding.notSuspended("original.authorId")))
                    """), arguments: [id])
    }

    /// The clause leaving out the tweets, and the reposts of the tweets, of `hiding`; nil when it is empty.
    /// The ids are numbers, written into the SQL rather than bound, so any count of them takes one statement.
    static func hidingClause(_ hiding: Set<Int64>) -> String? {
        guard !hiding.isEmpty else { return nil }
        let list = hiding.sorted().map(String.init).joined(separator: ",")
        return "tweet.authorId NOT IN (\(list)) AND (original.authorId IS NULL OR original.authorId NOT IN (\(list)))"
    }

    /// The clause selecting the tweets of `timeline`, with its arguments.
    static func filter(_ timeline: Timeline) -> (condition: String?, arguments: StatementArguments) {
        switch timeline {
        case .tag(let key):
            ("tweet.id IN (SELECT tweetId FROM tweetTag WHERE tag = ?)", [key])
        case .everyone:
            (nil, [])
        case .author(let id):
            ("tweet.authorId = ?", [id])
        case .home(let id):
            // The unary plus keeps SQLite off the author index: with it, SQLite fetched every tweet of every
            // followed account and sorted them (seconds for a follower of an account with 500k tweets);
            // without it, it walks the tweets newest first and stops at the page's end.
            (
                "(+tweet.authorId = ? OR +tweet.authorId IN (SELECT followeeId FROM follow WHERE followerId = ?))",
                [id, id]
            )
        }
    }
}

extension TweetCounter {
    /// The column of `tweet` that holds it.
    var column: String {
        switch self {
        case .replies: "repliesCount"
        case .reposts: "repostsCount"
        case .likes: "likesCount"
        }
    }
}
