/// Which tweets a fetch wants: newest first, optionally newer than `sinceID`, older than `maxID`, by one author.
public struct TweetQuery: Sendable, Equatable {
    /// Only tweets with a larger id (pull to refresh).
    public var sinceID: Int64?
    /// Only tweets with a smaller id (paging back).
    public var maxID: Int64?
    /// At most this many.
    public var limit: Int
    /// Only this author's tweets.
    public var authorID: Int64?

    /// Creates a query.
    public init(sinceID: Int64? = nil, maxID: Int64? = nil, limit: Int = 20, authorID: Int64? = nil) {
        self.sinceID = sinceID
        self.maxID = maxID
        self.limit = limit
        self.authorID = authorID
    }
}

/// Reads tweets; every reader sees the same tweets.
public protocol TweetFetching: Sendable {
    /// The tweets matching `query`, newest first.
    func fetchTweets(_ query: TweetQuery) async throws -> [Tweet]
    /// The feed's version now, when pages come from memory; nil otherwise.
    var feedVersion: Int? { get }
    /// The tweets matching `query` when they can be had without waiting, from memory; nil otherwise.
    func fetchTweetsAtOnce(_ query: TweetQuery) -> CachedPage?
    /// One tweet.
    func tweet(id: Int64) async throws -> Tweet?
    /// Tweets newer than `sinceID`, oldest first, for a subscription's catch-up.
    func tweets(after sinceID: Int64, authorID: Int64?, limit: Int) async throws -> [Tweet]
}

extension TweetFetching {
    /// A store that keeps nothing in memory has no version to offer.
    public var feedVersion: Int? { nil }

    /// A store that keeps nothing in memory always has to wait.
    public func fetchTweetsAtOnce(_ query: TweetQuery) -> CachedPage? { nil }
}

/// Tweets read from memory, with the version of the feed they were read at.
public struct CachedPage: Sendable {
    /// Newest first.
    public var tweets: [Tweet]
    /// Grows with every change to the feed: the same query at the same version gives the same page, so what
    /// is made from a page can be kept until the version moves on.
    public var feedVersion: Int

    /// Creates a page.
    public init(tweets: [Tweet], feedVersion: Int) {
        self.tweets = tweets
        self.feedVersion = feedVersion
    }
}

/// Writes tweets on behalf of a user.
public protocol TweetPosting: Sendable {
    /// Stores `text` (already validated and normalised) as a tweet by `userID`; with an idempotency key seen
    /// from the same user within 24 hours, returns the first tweet instead of posting again.
    func postTweet(text: String, idempotencyKey: String?, by userID: Int64) async throws -> Tweet
    /// Queues the post at once and returns the wait for it, so that posts pipelined on one connection share a
    /// commit while still being stored in the order they were queued.
    func startPost(text: String, idempotencyKey: String?, by userID: Int64) -> @Sendable () async throws -> Tweet
    /// Deletes tweet `id` of `userID`; `.notFound` when missing, `.forbidden` when someone else's.
    func deleteTweet(id: Int64, by userID: Int64) async throws
}

extension TweetPosting {
    /// A store without a queue posts when the wait begins; waits are taken in order, so posts still are.
    public func startPost(text: String, idempotencyKey: String?, by userID: Int64)
        -> @Sendable () async throws -> Tweet
    {
        { try await self.postTweet(text: text, idempotencyKey: idempotencyKey, by: userID) }
    }
}

/// Both reading and writing tweets.
public typealias TweetProviding = TweetFetching & TweetPosting
