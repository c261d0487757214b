import Foundation
import TwitterCore
import TwitterRules

/// The rows of a batch of posts, written each database's fastest way: in bulk on PostgreSQL, where a round trip
/// per row was the batch's cost; row by row on SQLite (`RowByRowPostRows`), in process, its statements compiled
/// once.
public protocol PostRowWriting: Sendable {
    /// Inserts `tweets` in their order, all created `now`; each one's id and its author's name, in that order.
    func insertTweets(_ tweets: [NewTweet], at now: Date, on connection: any SQLConnection) async throws
        -> [(id: Int64, username: String)]

    /// Inserts the mentions, once each.
    func insertMentions(_ mentions: [(tweetID: Int64, accountID: Int64)], on connection: any SQLConnection)
        async throws

    /// Inserts each tweet's tags (case-folded, once each), created `now`.
    func insertTags(_ tagged: [TaggedTweet], at now: Date, on connection: any SQLConnection) async throws

    /// Inserts the notifications in their order; their ids, in that order.
    func insertNotifications(_ planned: [PlannedNotificationRow], at now: Date, on connection: any SQLConnection)
        async throws -> [Int64]
}

/// A tweet of a batch to insert.
public struct NewTweet: Sendable {
    public let authorID: Int64
    public let text: String
    public let idempotencyKey: String?
    public let inReplyToID: Int64?
    public let quoteOfID: Int64?
}

/// A new tweet's tags.
public struct TaggedTweet: Sendable {
    public let tweetID: Int64
    public let authorID: Int64
    public let hashtags: [TweetEntities.Hashtag]

    /// The case-folded tags, once each.
    public var tagKeys: Set<String> { Set(hashtags.map { EntityScanner.tagKey($0.tag) }) }
}

/// A notification a rule planned, with who caused it and the tweet it is about.
public struct PlannedNotificationRow: Sendable {
    public let notification: PlannedNotification
    public let actor: Tweet.Author
    public let tweet: Tweet?
}

/// The rows of a batch one statement each, every statement a named text: right for SQLite, whose statements
/// run in process.
public struct RowByRowPostRows: PostRowWriting {
    /// The writer.
    public init() {}

    public func insertTweets(_ tweets: [NewTweet], at now: Date, on connection: any SQLConnection) async throws
        -> [(id: Int64, username: String)]
    {
        var written: [(id: Int64, username: String)] = []
        written.reserveCapacity(tweets.count)
        for tweet in tweets {
            guard
                let row = try await connection.firstRow(
                    SQLQuery(
                        InsertTweet.self, tweet.authorID, tweet.text, now, tweet.idempotencyKey, tweet.inReplyToID,
                        tweet.quoteOfID))
            else { throw TwitterError(.internal, "The tweet just written has no id") }
            written.append((try row.column("id"), try row.column("username", as: String?.self) ?? ""))
        }
        return written
    }

    private enum InsertTweet: SQLText {
        static let sql = """
            INSERT INTO tweets (author_id, text, created_at, idempotency_key, in_reply_to_id, quote_of)
            VALUES ($1, $2, $3, $4, $5, $6)
            RETURNING id, (SELECT username FROM users WHERE users.id = tweets.author_id) AS username
            """
    }

    public func insertMentions(_ mentions: [(tweetID: Int64, accountID: Int64)], on connection: any SQLConnection)
        async throws
    {
        for mention in mentions { try await connection.run(SQLQuery(InsertMention.self, mention.tweetID, mention.accountID)) }
    }

    private enum InsertMention: SQLText {
        static let sql = "INSERT INTO tweet_mentions (tweet_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING"
    }

    public func insertTags(_ tagged: [TaggedTweet], at now: Date, on connection: any SQLConnection) async throws {
        for tweet in tagged {
            for key in tweet.tagKeys {
                try await connection.run(SQLQuery(InsertTag.self, key, tweet.tweetID, tweet.authorID, now))
            }
        }
    }

    private enum InsertTag: SQLText {
        static let sql = "INSERT INTO tweet_tags (tag, tweet_id, author_id, created_at) VALUES ($1, $2, $3, $4)"
    }

    public func insertNotifications(
        _ planned: [PlannedNotificationRow], at now: Date, on connection: any SQLConnection
    ) async throws -> [Int64] {
        var ids: [Int64] = []
        for row in planned {
            ids.append(
                try await NotificationRows.insert(
                    connection, row.notification, by: row.actor, tweet: row.tweet, at: now
                ).0.id)
        }
        return ids
    }
}
