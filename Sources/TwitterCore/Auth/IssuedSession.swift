import Foundation

// @MemberwiseInit
/// A session token handed to a client: its id, the secret (shown once), and when it expires.
public struct IssuedSession: Sendable, Equatable {
    /// The token's id, for logout and `tokens.revoke`.
    public var id: Int64
    /// The secret; stored by the daemon only as a keyed hash.
    public var token: String
    /// When it expires; sessions slide forward on use.
    public var expiresAt: Date?
    /// A session (ended by logout) or a personal token (which logout leaves alone).
    public var kind: TokenKind = .session
    /// An OAuth access token's scopes; nil when the login may do everything.
    public var scopes: OAuthScopes?
    /// An OAuth access token's app; nil for any other token.
    public var appID: Int64?
}
