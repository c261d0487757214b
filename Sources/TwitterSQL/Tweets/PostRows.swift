import Foundation
import TwitterCore
import TwitterRules

/// The rows of a batch of posts, each table's in one `SQLRowBatch`, which the database's driver writes its
/// fastest way (`SQLConnection.insert`): the tweets, their mentions, their tags and their notifications.
enum PostRows {
    /// Inserts `tweets` in their order, all created `now`; each one's id and its author's name, in that order.
    static func insertTweets(_ tweets: [NewTweet], at now: Date, on connection: any SQLConnection) async throws
        -> [(id: Int64, username: String)]
    {
        guard !tweets.isEmpty else { return [] }
        let ids = try await connection.insert(
            SQLRowBatch(
                into: "tweets", count: tweets.count, returningIDs: true, named: Tweets.self,
                [
                    SQLBatchColumn("author_id", .integers(tweets.map(\.authorID))),
                    SQLBatchColumn("text", .texts(tweets.map(\.text))),
                    SQLBatchColumn("created_at", .same(.date(now))),
                    SQLBatchColumn("idempotency_key", .optionalTexts(tweets.map(\.idempotencyKey))),
                    SQLBatchColumn("in_reply_to_id", .optionalIntegers(tweets.map(\.inReplyToID))),
                    SQLBatchColumn("quote_of", .optionalIntegers(tweets.map(\.quoteOfID))),
                ]))
        // Each author's name once a batch, in one statement: most batches have one author or a few. One author,
        // as a lone post has, is read by its key: the list's `json_each` and the table SQLite builds for it cost a
        // lone post about 80,000 instructions (callgrind, bench/instructions.sh's post_lone), a fifth of it.
        var usernames: [Int64: String] = [:]
        let authors = Array(Set(tweets.map(\.authorID)))
        let query = authors.count == 1 ? SQLQuery(Username.self, authors[0]) : SQLQuery(Usernames.self, authors)
        for row in try await connection.rows(query) {
            usernames[try row.column("id", as: Int64.self)] = try row.column("username", as: String.self)
        }
        return zip(ids, tweets).map { ($0, usernames[$1.authorID] ?? "") }
    }

    /// The batches' names: each table's batch has one shape.
    private enum Tweets: SQLBatchNaming {}
    private enum Mentions: SQLBatchNaming {}
    private enum Tags: SQLBatchNaming {}
    private enum Notifications: SQLBatchNaming {}

    private enum Usernames: SQLText {
        static let sql: SQLQuery = "SELECT id, username FROM users WHERE id \(isInParam: 1)"
    }

    private enum Username: SQLText {
        static let sql: SQLQuery = "SELECT id, username FROM users WHERE id = \(param: 1)"
    }

    /// Inserts the mentions, once each.
    static func insertMentions(_ mentions: [(tweetID: Int64, accountID: Int64)], on connection: any SQLConnection)
        async throws
    {
        _ = try await connection.insert(
            SQLRowBatch(
                into: "tweet_mentions", count: mentions.count, skippingConflicts: true, named: Mentions.self,
                [
                    SQLBatchColumn("tweet_id", .integers(mentions.map(\.tweetID))),
                    SQLBatchColumn("user_id", .integers(mentions.map(\.accountID))),
                ]))
    }

    /// Inserts each tweet's tags (case-folded, once each), created `now`.
    static func insertTags(_ tagged: [TaggedTweet], at now: Date, on connection: any SQLConnection) async throws {
        var tags: [String] = []
        var tweetIDs: [Int64] = []
        var authorIDs: [Int64] = []
        for tweet in tagged {
            for key in tweet.tagKeys {
                tags.append(key)
                tweetIDs.append(tweet.tweetID)
                authorIDs.append(tweet.authorID)
            }
        }
        _ = try await connection.insert(
            SQLRowBatch(
                into: "tweet_tags", count: tags.count, named: Tags.self,
                [
                    SQLBatchColumn("tag", .texts(tags)), SQLBatchColumn("tweet_id", .integers(tweetIDs)),
                    SQLBatchColumn("author_id", .integers(authorIDs)), SQLBatchColumn("created_at", .same(.date(now))),
                ]))
    }

    /// Inserts the notifications in their order; their ids, in that order.
    static func insertNotifications(
        _ planned: [PlannedNotificationRow], at now: Date, on connection: any SQLConnection
    ) async throws -> [Int64] {
        try await connection.insert(
            SQLRowBatch(
                into: "notifications", count: planned.count, returningIDs: true, named: Notifications.self,
                [
                    SQLBatchColumn("recipient_id", .integers(planned.map(\.notification.recipientID))),
                    SQLBatchColumn("type", .texts(planned.map(\.notification.kind.rawValue))),
                    SQLBatchColumn("actor_id", .integers(planned.map(\.actor.id))),
                    SQLBatchColumn("tweet_id", .optionalIntegers(planned.map { $0.tweet?.id })),
                    SQLBatchColumn("created_at", .same(.date(now))),
                ]))
    }
}

/// A tweet of a batch to insert.
struct NewTweet {
    /// Who posts it.
    let authorID: Int64
    /// Its text, as posted.
    let text: String
    /// The client's key for a retried post, if it gave one.
    let idempotencyKey: String?
    /// The tweet it answers, if any.
    let inReplyToID: Int64?
    /// The tweet it quotes, if any.
    let quoteOfID: Int64?
}

/// A new tweet's tags.
struct TaggedTweet {
    /// The new tweet.
    let tweetID: Int64
    /// Who posts it.
    let authorID: Int64
    /// Its hashtags, as found in its text.
    let hashtags: [TweetEntities.Hashtag]

    /// The case-folded tags, once each.
    var tagKeys: Set<String> { Set(hashtags.map { EntityScanner.tagKey($0.tag) }) }
}

/// A notification a rule planned, with who caused it and the tweet it is about.
struct PlannedNotificationRow {
    /// Who is told of what.
    let notification: PlannedNotification
    /// Who caused it.
    let actor: Tweet.Author
    /// The tweet it is about, if any.
    let tweet: Tweet?
}
