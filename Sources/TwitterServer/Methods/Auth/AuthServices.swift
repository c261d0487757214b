import TwitterCore

/// What the auth methods need, each behind a TwitterCore protocol; twitterd's main fills it in.
public struct AuthServices: Sendable {
    /// The login providers, and which are enabled now.
    public var providers: LoginProviderSelection
    /// Accounts.
    public var users: any UserStoring
    /// Profiles.
    public var profiles: any ProfileStoring
    /// Sessions.
    public var sessions: any SessionIssuing
    /// Personal tokens.
    public var tokens: any PersonalTokenManaging
    /// Password hashing and rules.
    public var passwords: any PasswordHashing
    /// uid links for peer login.
    public var peerLinks: any PeerLinkStoring
    /// Failed-login counting.
    public var throttle: LoginThrottle
    /// The logged-in connections, which revocations reach.
    public var liveLogins: LiveLogins
    /// Who is an admin, decided at each login.
    public var roles: AdminRoles
    /// Suspensions, which refuse logins; nil where there is no moderation (some tests).
    public var moderation: (any ModerationStoring)?
    /// The signups each local user may make.
    public var signups: SignupRateLimiter

    /// Creates the services.
    public init(
        providers: LoginProviderSelection, users: any UserStoring, profiles: any ProfileStoring,
        sessions: any SessionIssuing,
        tokens: any PersonalTokenManaging, passwords: any PasswordHashing, peerLinks: any PeerLinkStoring,
        throttle: LoginThrottle, liveLogins: LiveLogins = LiveLogins(), roles: AdminRoles = AdminRoles(.init()),
        moderation: (any ModerationStoring)? = nil, signups: SignupRateLimiter = .unlimited
    ) {
        self.signups = signups
        self.liveLogins = liveLogins
        self.roles = roles
        self.moderation = moderation
        self.providers = providers
        self.users = users
        self.profiles = profiles
        self.sessions = sessions
        self.tokens = tokens
        self.passwords = passwords
        self.peerLinks = peerLinks
        self.throttle = throttle
    }
}
