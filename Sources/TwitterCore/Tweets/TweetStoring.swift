import Foundation

/// Which tweets a fetch wants: one timeline, newest first, optionally newer than `sinceID`, older than `maxID`.
public struct TweetQuery: Sendable, Hashable {
    /// Whose tweets.
    public var timeline: Timeline
    /// Only tweets with a larger id (pull to refresh).
    public var sinceID: Int64?
    /// Only tweets with a smaller id (paging back).
    public var maxID: Int64?
    /// At most this many.
    public var limit: Int
    /// Accounts whose tweets, and reposts of whose tweets, are left out: the reader's `HiddenAccounts`.
    public var hiding: Set<Int64>

    /// Creates a query.
    public init(
        _ timeline: Timeline = .everyone, sinceID: Int64? = nil, maxID: Int64? = nil, limit: Int = 20,
        hiding: Set<Int64> = []
    ) {
        self.timeline = timeline
        self.sinceID = sinceID
        self.maxID = maxID
        self.limit = limit
        self.hiding = hiding
    }
}

/// A post to make: a tweet, a reply when `inReplyToID` is set, a quote when `quoteOfID` is.
public struct PostDraft: Sendable, Equatable {
    /// The text, already validated and normalised; empty only for a quote.
    public var text: String
    /// The author.
    public var authorID: Int64
    /// The tweet answered.
    public var inReplyToID: Int64?
    /// The tweet quoted (its original, when it is a repost).
    public var quoteOfID: Int64?
    /// Posting again with this key within `idempotencyWindow` returns the first tweet.
    public var idempotencyKey: String?
    /// How long an idempotency key is honoured: 24 hours.
    public static let idempotencyWindow: TimeInterval = 24 * 60 * 60

    /// Creates a draft.
    public init(
        text: String, by authorID: Int64, inReplyToID: Int64? = nil, idempotencyKey: String? = nil,
        quoteOfID: Int64? = nil
    ) {
        self.quoteOfID = quoteOfID
        self.text = text
        self.authorID = authorID
        self.inReplyToID = inReplyToID
        self.idempotencyKey = idempotencyKey
    }
}

/// What waits in a store's group commit for the next shared transaction: a tweet or reply, or a repost.
public enum PendingPost: Sendable {
    /// A tweet or reply.
    case post(PostDraft)
    /// A repost of the tweet with this id, by this user.
    case repost(Int64, by: Int64)
}

/// Durable tweets: the store persists posts, replies, reposts and deletions and reads committed rows. Every
/// commit is reported, in commit order, to the store's `CommitObserving`, which keeps whatever is cached
/// current. Tweets come back as stored: counts as committed, the reader's marks false.
public protocol TweetStoring: Sendable {
    /// Queues a post for the next shared commit and waits for it: concurrent posts share one commit. The post
    /// takes its place in the commit order before the call first suspends, so posts started one after another are
    /// stored in that order, which is what lets a client's pipelined posts share a commit (the method is declared
    /// `sharesCommits`). With an idempotency key seen from the same user within 24 hours, it returns the first
    /// tweet instead; a reply to a tweet that does not exist fails with `.notFound`.
    func post(_ draft: PostDraft) async throws -> Tweet
    /// Reposts tweet `id` (the original when `id` is itself a repost) as `userID`, once: reposting again
    /// returns the first repost. `.notFound` when there is no such tweet. Queued in the commit order like a post.
    func repost(_ id: Int64, by userID: Int64) async throws -> Tweet
    /// Takes back `userID`'s repost of `id`; false when there was none.
    func unrepost(_ id: Int64, by userID: Int64) async throws -> Bool
    /// Deletes tweet `id` of `userID`, and every repost of it; `.notFound` when missing, `.forbidden` when
    /// someone else's.
    func deleteTweet(id: Int64, by userID: Int64) async throws
    /// The tweets matching `query`, newest first.
    func tweets(_ query: TweetQuery) async throws -> [Tweet]
    /// One tweet.
    func tweet(id: Int64) async throws -> Tweet?
    /// The tweets among `ids` that are there (not deleted, their authors in good standing), in no particular
    /// order, in one read: a page's quoted tweets.
    func tweets(ids: [Int64]) async throws -> [Tweet]
    /// Tweets of `timeline` newer than `sinceID`, oldest first, for a subscription's catch-up.
    func tweets(after sinceID: Int64, in timeline: Timeline, limit: Int) async throws -> [Tweet]
    /// Tweet `id` with its ancestors and (up to `descendantLimit` of) its descendants; nil when it does not exist.
    func thread(of id: Int64, descendantLimit: Int) async throws -> ThreadRows?
    /// The tweets quoting tweet `id` (an original), newest first, older than `page.before`, leaving out the
    /// accounts of `page.hiding`; read one past the limit and paged by `IDPage(overfetched:)`, the quote's id the
    /// cursor.
    func quotes(of id: Int64, page: PageRequest) async throws -> IDPage<Tweet>
}

extension TweetStoring {
    /// Posts a tweet and waits until it is committed.
    public func postTweet(text: String, idempotencyKey: String? = nil, by userID: Int64) async throws -> Tweet {
        try await post(PostDraft(text: text, by: userID, idempotencyKey: idempotencyKey))
    }
}

/// Learns of every commit's events (about tweets, relations, accounts and messages), in commit order, once it is
/// durable: the server's read model, which keeps its caches and the live streams current from them (and, with a
/// shared database, from the commits of other daemons).
public protocol CommitObserving: Sendable {
    /// `events` were committed, in this order.
    func committed(_ events: [CommitEvent])

    /// `events` were committed by another daemon on the same database, in this order (after, and before,
    /// whatever else `committed` and this were told). What this daemon acted on itself (a revocation, a rate
    /// limit's take) it must act on for the other daemon's events too.
    func committedElsewhere(_ events: [CommitEvent])
}

extension CommitObserving {
    /// By default another daemon's commit is like this one's.
    public func committedElsewhere(_ events: [CommitEvent]) {
        committed(events)
    }
}
