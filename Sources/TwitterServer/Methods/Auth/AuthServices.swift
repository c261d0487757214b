import TwitterCore

// @MemberwiseInit
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
    public var liveLogins: LiveLogins = LiveLogins()
    /// Who is an admin, decided at each login.
    public var roles: AdminRoles = AdminRoles(.init())
    /// Suspensions, which refuse logins; nil where there is no moderation (some tests).
    public var moderation: (any ModerationStoring)?
    /// The signups each local user may make.
    public var signups: SignupRateLimiter = .unlimited
    /// OAuth apps and their tokens (`oauth.*`); nil where the daemon serves no OAuth (some tests).
    public var oauth: OAuthService?
    /// The OAuth apps each local user may register (`oauth.apps.register`, open to anyone on the socket).
    public var appRegistrations: SignupRateLimiter = .unlimited
}
