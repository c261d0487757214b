import Foundation

/// Search over tweets, people and tags: a tweet is found as soon as its post is answered, whether the store's
/// full-text index is written in the post's transaction or after it (then the store matches what its index
/// lacks with `SearchMatcher`).
public protocol TweetSearching: Sendable {
    /// Up to `limit` tweets matching `query` (its author already resolved to `authorID`) from `position`,
    /// leaving out the tweets of `hiding`. With words or phrases, the newest matches are ranked a window at a
    /// time (`SearchPosition`): best match first, newest first among equals, then the next, older window.
    /// Without, tweets come newest first.
    func search(
        _ query: SearchQuery, authorID: Int64?, hiding: Set<Int64>, limit: Int, from position: SearchPosition
    ) async throws -> SearchResults
    /// Accounts whose username, first name or last name starts with `prefix`, case-insensitively.
    func users(withPrefix prefix: String, hiding: Set<Int64>, limit: Int) async throws -> [UserSummary]
    /// The tags posted since `since`, by how many accounts used them, then how many tweets.
    func trending(since: Date, limit: Int) async throws -> [TrendingTag]
}

// @MemberwiseInit
/// A tag as `tags.trending` ranks it.
public struct TrendingTag: Sendable, Hashable, Codable {
    /// The tag, folded (`EntityScanner.tagKey`).
    public var tag: String
    /// Tweets carrying it in the window.
    public var tweetsCount: Int
    /// Distinct accounts that used it in the window.
    public var usersCount: Int
}

// @MemberwiseInit
/// Where a search page starts: in the window of matches older than `before` (the newest when nil), past the
/// first `offset` of them as ranked.
///
/// Ranking every match of common words costs in proportion to the matches (SQLite's bm25() over the 40k
/// matches of "coffee kernel" on the 1M-tweet bench database: 88 ms), so matches are ranked a window at a
/// time, newest window first: finding the newest `windowSize` matches takes 1 ms there, reading their texts
/// 3.4 ms and ranking them (`SearchRanking`) 1.4 ms; twbench measured the whole query at p50 8 ms, p99 12 ms
/// on one connection. Relevance orders each window; recency orders the windows.
public struct SearchPosition: Sendable, Hashable {
    /// Only matches with a smaller id; nil for the newest.
    public var before: Int64?
    /// How many of the window's ranked matches earlier pages held.
    public var offset: Int = 0

    /// The matches ranked together.
    public static let windowSize = 1000
}

// @MemberwiseInit
/// A page of search results and where the next one starts.
public struct SearchResults: Sendable, Equatable {
    /// The tweets, in order.
    public var tweets: [Tweet]
    /// Where the next page starts; nil at the end.
    public var next: SearchPosition?
}
