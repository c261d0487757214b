/// The follow graph. Follows and unfollows are reported to the store's `CommitObserving` once committed,
/// so live home timelines change whom they show in commit order.
public protocol FollowStoring: Sendable {
    /// `followerID` follows `followeeID`; false when it already did.
    func follow(_ followeeID: Int64, by followerID: Int64) async throws -> Bool
    /// `followerID` stops following `followeeID`; false when it did not.
    func unfollow(_ followeeID: Int64, by followerID: Int64) async throws -> Bool
    /// Who follows `userID`, newest follow first.
    func followers(of userID: Int64, page: PageRequest) async throws -> UserPage
    /// Whom `userID` follows, newest follow first.
    func following(of userID: Int64, page: PageRequest) async throws -> UserPage
    /// The ids of everyone `userID` follows.
    func followeeIDs(of userID: Int64) async throws -> Set<Int64>
    /// The account `username` as `viewerID` sees it, with its id and the id of the tweet it pins, in one read;
    /// nil when there is none. Without `counted`, its counts are left at zero: for a caller that keeps them
    /// (`counts(of:)`), one row is read and nothing counted.
    func account(named username: String, viewerID: Int64, counted: Bool) async throws -> AccountOverview?
    /// What `overview` counts of `userID`, alone.
    func counts(of userID: Int64) async throws -> AccountCounts
}

extension FollowStoring {
    /// The account `username` as `viewerID` sees it; nil when there is none (`account(named:)`'s overview).
    public func overview(of username: String, viewerID: Int64, counted: Bool) async throws -> UserOverview? {
        try await account(named: username, viewerID: viewerID, counted: counted)?.overview
    }

    /// The account `username` as `viewerID` sees it, with its counts; nil when there is none.
    public func overview(of username: String, viewerID: Int64) async throws -> UserOverview? {
        try await overview(of: username, viewerID: viewerID, counted: true)
    }
}

// @MemberwiseInit
/// An account as a profile shows it, and what a profile reads next: its id (for its counts) and its pin.
public struct AccountOverview: Sendable {
    /// The account's id.
    public var id: Int64
    /// The tweet it pins, as stored: whether the viewer may see it is the reader's to check.
    public var pinnedTweetID: Int64?
    /// The account as the viewer sees it, without its pinned tweet.
    public var overview: UserOverview
}

// @MemberwiseInit
/// An account's counts, as a profile shows them: who follows it and whom it follows, leaving out suspended
/// accounts, and its tweets, replies and reposts, leaving out reposts of a suspended account's tweets.
public struct AccountCounts: Sendable, Hashable {
    /// How many accounts follow it.
    public var followers: Int
    /// How many accounts it follows.
    public var following: Int
    /// How many tweets, replies and reposts it has posted.
    public var tweets: Int
}

extension UserOverview {
    /// Its counts, read or written together.
    public var counts: AccountCounts {
        get { AccountCounts(followers: followersCount, following: followingCount, tweets: tweetsCount) }
        set {
            (followersCount, followingCount, tweetsCount) = (newValue.followers, newValue.following, newValue.tweets)
        }
    }
}

/// Likes, and what one reader has liked and reposted. Likes are reported to the store's observer with the
/// tweet's new counts.
public protocol LikeStoring: Sendable {
    /// `userID` likes tweet `id` (the original when `id` is a repost); the counts after. `.notFound` when
    /// there is no such tweet.
    func like(_ id: Int64, by userID: Int64) async throws -> TweetCounts
    /// Takes the like back; the counts after.
    func unlike(_ id: Int64, by userID: Int64) async throws -> TweetCounts
    /// Who liked tweet `id`, newest like first; nil when there is no such tweet.
    func likers(of id: Int64, page: PageRequest) async throws -> UserPage?
    /// Who reposted tweet `id` (the original when `id` is a repost), newest repost first; nil when there is no
    /// such tweet.
    func reposters(of id: Int64, page: PageRequest) async throws -> UserPage?
    /// The tweets `userID` likes, newest like first, leaving out the tweets of `page.hiding`, as `bookmarks` reads
    /// bookmarks (the page has the same shape).
    func liked(by userID: Int64, page: PageRequest) async throws -> BookmarkPage
    /// Every tweet `userID` has liked or bookmarked and every original it has reposted.
    func marks(of userID: Int64) async throws -> ReaderMarks
}

// @MemberwiseInit
/// What one reader has done to tweets: the `likedByMe`, `repostedByMe` and `bookmarkedByMe` of every answer.
public struct ReaderMarks: Sendable, Equatable {
    /// The ids of the tweets liked.
    public var liked: Set<Int64> = []
    /// The ids of the originals reposted.
    public var reposted: Set<Int64> = []
    /// The ids of the tweets bookmarked.
    public var bookmarked: Set<Int64> = []

    /// `tweet` as this reader sees it, the original of a repost included.
    public func applied(to tweet: Tweet) -> Tweet {
        var marked = tweet
        marked.likedByMe = liked.contains(tweet.id)
        marked.repostedByMe = reposted.contains(tweet.id)
        marked.bookmarkedByMe = bookmarked.contains(tweet.id)
        if let original = tweet.repostOf { marked.repostOf = applied(to: original) }
        return marked
    }

    /// Whether any of `tweets` (or a repost's original) is marked, so that a page shared by every unmarked
    /// reader would be wrong for this one.
    public func touches(_ tweets: [Tweet]) -> Bool {
        guard !liked.isEmpty || !reposted.isEmpty || !bookmarked.isEmpty else { return false }
        return tweets.contains { tweet in
            touches(tweet) || tweet.repostOf.map(touches) ?? false
        }
    }

    private func touches(_ tweet: Tweet) -> Bool {
        liked.contains(tweet.id) || reposted.contains(tweet.id) || bookmarked.contains(tweet.id)
    }

    /// The reader an event changes the marks of; nil for events that change none.
    public static func reader(changedBy event: TweetEvent) -> Int64? {
        switch event {
        case .liked(_, let userID), .unliked(_, let userID), .bookmarked(_, let userID), .unbookmarked(_, let userID):
            userID
        case .posted(let tweet) where tweet.repostOf != nil: tweet.author.id
        case .deleted(_, let authorID, _?): authorID
        default: nil
        }
    }

    /// Applies one committed event of this reader's.
    public mutating func apply(_ event: TweetEvent, reader: Int64) {
        switch event {
        case .liked(let id, let userID) where userID == reader: liked.insert(id)
        case .unliked(let id, let userID) where userID == reader: liked.remove(id)
        case .bookmarked(let id, let userID) where userID == reader: bookmarked.insert(id)
        case .unbookmarked(let id, let userID) where userID == reader: bookmarked.remove(id)
        case .posted(let tweet) where tweet.author.id == reader:
            if let original = tweet.repostOf { reposted.insert(original.id) }
        case .deleted(_, let authorID, let original?) where authorID == reader: reposted.remove(original)
        default: break
        }
    }
}
