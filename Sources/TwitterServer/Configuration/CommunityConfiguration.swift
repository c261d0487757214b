import TwitterCore

/// Who runs the community and how fast accounts may write: the `[admin]` and `[rates]` tables.
public struct CommunityConfiguration: Sendable, Equatable {
    /// Accounts that are admins by username (compared without case).
    public var adminUsers: [String] = []
    /// Local Unix groups whose members are admins when the kernel vouches for them (`AdminRoles`).
    public var adminGroups: [String] = []
    /// The write limits per account; an action without one is not limited.
    public var rates: [RateLimitedAction: RateLimit] = Self.defaultRates

    /// Mastodon's own limits where it has them (300 statuses per 3 hours, 400 follows a day), and the same
    /// 300 per 3 hours for reposts, which Mastodon counts as statuses. Likes cost the daemon least and are
    /// the most natural to give in a burst (reading a thread), so 600 an hour. Each report notifies every
    /// admin, so 100 a day: enough to report a spam wave, too few to bury the admins.
    ///
    /// The other writes were free until issue #48: each is a synced write, and on PostgreSQL a block withdraws
    /// every daemon's read lease. Their rates leave a person's use untouched and a script's storm bounded: 200
    /// blocks at once (a harassment wave blocked in one sitting), then one every 7 minutes, so one account
    /// keeps the other daemons off their lease for at most its burst, then for one heartbeat (250 ms) in 7
    /// minutes; deletions at Mastodon's pace or a little above; bookmarks as likes; a list filled in one go
    /// (500 members); the rest, rare by nature, a few dozen an hour or a day.
    public static let defaultRates: [RateLimitedAction: RateLimit] = [
        .posts: RateLimit(count: 300, period: 3 * 3600),
        .deletes: RateLimit(count: 300, period: 3 * 3600),
        .follows: RateLimit(count: 400, period: 86_400),
        .likes: RateLimit(count: 600, period: 3600),
        .reposts: RateLimit(count: 300, period: 3 * 3600),
        .reports: RateLimit(count: 100, period: 86_400),
        .messages: RateLimit(count: 500, period: 3600),
        .blocks: RateLimit(count: 200, period: 86_400),
        .mutes: RateLimit(count: 200, period: 3600),
        .bookmarks: RateLimit(count: 600, period: 3600),
        .pins: RateLimit(count: 60, period: 3600),
        .profileUpdates: RateLimit(count: 60, period: 3600),
        .lists: RateLimit(count: 60, period: 3600),
        .listMembers: RateLimit(count: 500, period: 3600),
        .credentials: RateLimit(count: 50, period: 86_400),
        .marks: RateLimit(count: 600, period: 3600),
    ]

    /// The signups per local user (uid), root excepted; nil for no limit (`rates.signups`).
    public var signupRate: RateLimit? = Self.defaultSignupRate

    /// Five accounts an hour for each local user: a household or a class signing up from one uid is served,
    /// while a script making accounts in bulk (each with fresh write limits) is stopped after five.
    public static let defaultSignupRate = RateLimit(count: 5, period: 3600)

    /// Creates the defaults: no admin but root through peer credentials, and the default rates.
    public init() {}
}
