import Foundation

/// Search over tweets, people and tags: the store's full-text index, kept in the transaction of every post,
/// so a tweet is found as soon as its post is answered.
public protocol TweetSearching: Sendable {
    /// Tweets matching `query` (its author already resolved to `authorID`), best match first and newest first
    /// among equals, skipping `offset`, leaving out the tweets of `hiding`.
    func search(_ query: SearchQuery, authorID: Int64?, hiding: Set<Int64>, limit: Int, offset: Int) async throws
        -> [Tweet]
    /// Accounts whose username, first name or last name starts with `prefix`, case-insensitively.
    func users(withPrefix prefix: String, hiding: Set<Int64>, limit: Int) async throws -> [UserSummary]
    /// The tags posted since `since`, by how many accounts used them, then how many tweets.
    func trending(since: Date, limit: Int) async throws -> [TrendingTag]
}

/// A tag as `tags.trending` ranks it.
public struct TrendingTag: Sendable, Hashable, Codable {
    /// The tag, folded (`EntityScanner.tagKey`).
    public var tag: String
    /// Tweets carrying it in the window.
    public var tweetsCount: Int
    /// Distinct accounts that used it in the window.
    public var usersCount: Int

    /// Creates a tag's figures.
    public init(tag: String, tweetsCount: Int, usersCount: Int) {
        self.tag = tag
        self.tweetsCount = tweetsCount
        self.usersCount = usersCount
    }
}
