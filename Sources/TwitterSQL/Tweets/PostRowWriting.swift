import Foundation
import TwitterCore
import TwitterRules

/// The rows of a batch of posts, written each database's fastest way: in bulk on PostgreSQL, where a round trip
/// per row was the batch's cost; row by row on SQLite, in process, its statements compiled once.
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
    /// Who posts it.
    public let authorID: Int64
    /// Its text, as posted.
    public let text: String
    /// The client's key for a retried post, if it gave one.
    public let idempotencyKey: String?
    /// The tweet it answers, if any.
    public let inReplyToID: Int64?
    /// The tweet it quotes, if any.
    public let quoteOfID: Int64?
}

/// A new tweet's tags.
public struct TaggedTweet: Sendable {
    /// The new tweet.
    public let tweetID: Int64
    /// Who posts it.
    public let authorID: Int64
    /// Its hashtags, as found in its text.
    public let hashtags: [TweetEntities.Hashtag]

    /// The case-folded tags, once each.
    public var tagKeys: Set<String> { Set(hashtags.map { EntityScanner.tagKey($0.tag) }) }
}

/// A notification a rule planned, with who caused it and the tweet it is about.
public struct PlannedNotificationRow: Sendable {
    /// Who is told of what.
    public let notification: PlannedNotification
    /// Who caused it.
    public let actor: Tweet.Author
    /// The tweet it is about, if any.
    public let tweet: Tweet?
}
