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

/// Durable tweets: the store persists posts and deletions and reads committed rows. Every commit is reported,
/// in commit order, to the store's `TweetCommitObserving`, which keeps whatever is held in memory current.
public protocol TweetStoring: Sendable {
    /// Queues a post (text already validated and normalised) for the next shared commit and returns the wait
    /// for it: concurrent posts share one commit, and posts queued one after another are stored in that order,
    /// which is what lets a client's pipelined posts share a commit. With an idempotency key seen from the same
    /// user within 24 hours, the wait returns the first tweet instead.
    func post(text: String, idempotencyKey: String?, by userID: Int64) -> @Sendable () async throws -> Tweet
    /// Deletes tweet `id` of `userID`; `.notFound` when missing, `.forbidden` when someone else's.
    func deleteTweet(id: Int64, by userID: Int64) async throws
    /// The tweets matching `query`, newest first.
    func tweets(_ query: TweetQuery) async throws -> [Tweet]
    /// One tweet.
    func tweet(id: Int64) async throws -> Tweet?
    /// Tweets newer than `sinceID`, oldest first, for a subscription's catch-up.
    func tweets(after sinceID: Int64, authorID: Int64?, limit: Int) async throws -> [Tweet]
}

extension TweetStoring {
    /// Posts and waits until the post is committed.
    public func postTweet(text: String, idempotencyKey: String?, by userID: Int64) async throws -> Tweet {
        try await post(text: text, idempotencyKey: idempotencyKey, by: userID)()
    }
}

/// Learns of every committed change to the tweets, in commit order, once it is durable: the server's read
/// model, which keeps its memory and the live streams current from it (and, with a shared database, from the
/// commits of other daemons).
public protocol TweetCommitObserving: Sendable {
    /// `events` were committed, in this order.
    func committed(_ events: [TweetEvent])
}
