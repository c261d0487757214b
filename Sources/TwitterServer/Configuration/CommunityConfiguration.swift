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
    public static let defaultRates: [RateLimitedAction: RateLimit] = [
        .posts: RateLimit(count: 300, period: 3 * 3600),
        .follows: RateLimit(count: 400, period: 86_400),
        .likes: RateLimit(count: 600, period: 3600),
        .reposts: RateLimit(count: 300, period: 3 * 3600),
        .reports: RateLimit(count: 100, period: 86_400),
        .messages: RateLimit(count: 500, period: 3600),
    ]

    /// The signups per local user (uid), root excepted; nil for no limit (`rates.signups`).
    public var signupRate: RateLimit? = Self.defaultSignupRate

    /// Five accounts an hour for each local user: a household or a class signing up from one uid is served,
    /// while a script making accounts in bulk (each with fresh write limits) is stopped after five.
    public static let defaultSignupRate = RateLimit(count: 5, period: 3600)

    /// Creates the defaults: no admin but root through peer credentials, and the default rates.
    public init() {}
}
