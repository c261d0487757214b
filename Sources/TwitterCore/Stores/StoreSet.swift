// @MemberwiseInit
/// Every store the services need, by their protocols: what a backend (SQLite, PostgreSQL) hands the assembly
/// and the store test suite, so neither names a backend's types.
public struct StoreSet: Sendable {
    /// Accounts.
    public var users: any UserStoring
    /// Profiles and their versions.
    public var profiles: any ProfileStoring
    /// Session and personal tokens.
    public var tokens: any TokenStoring
    /// OAuth apps, codes and app tokens.
    public var oauth: any OAuthStoring
    /// Unix uids linked to accounts.
    public var peerLinks: any PeerLinkStoring
    /// Failed-login counters.
    public var throttle: any ThrottleStoring
    /// Tweets, reposts, timelines and threads.
    public var tweets: any TweetStoring
    /// The follow graph and user overviews.
    public var follows: any FollowStoring
    /// Likes and a reader's marks.
    public var likes: any LikeStoring
    /// Bookmarks, each reader's own.
    public var bookmarks: any BookmarkStoring
    /// Each account's pinned tweet.
    public var pins: any PinStoring
    /// Lists and their members.
    public var lists: any ListStoring
    /// Mutes and blocks.
    public var relations: any RelationStoring
    /// Activity notifications.
    public var notifications: any NotificationStoring
    /// Text search, people search and trending tags.
    public var search: any TweetSearching
    /// Suspensions, reports and the audit log.
    public var moderation: any ModerationStoring
    /// Archives, account deletion and reset codes.
    public var accounts: any AccountLifecycleStoring
    /// Write rate buckets, saved across restarts.
    public var rateBuckets: any RateBucketStoring
    /// Direct messages, sealed.
    public var messages: any MessageStoring
    /// Whether the backend answers, for `system.health` and the watchdog.
    public var health: any HealthChecking
    /// The other daemons on the same database, if it can have any.
    public var otherDaemons: any OtherDaemons = NoOtherDaemons()
}
