import Foundation

// @MemberwiseInit
/// An application registered for OAuth (`POST /api/v1/apps`, `oauth.apps.register`): who asks for tokens, with
/// which redirect URIs and at most which scopes. Its secret is kept only as a keyed hash.
public struct OAuthApp: Sendable, Equatable {
    /// The row's id.
    public var id: Int64
    /// The public client id.
    public var clientID: String
    /// The app's name.
    public var name: String
    /// The redirect URIs it registered, one a line in the store (`urn:ietf:wg:oauth:2.0:oob` for none).
    public var redirectURIs: [String]
    /// The most a token of the app may be granted.
    public var scopes: OAuthScopes
    /// Its website, if given.
    public var website: String?
    /// When it was registered.
    public var createdAt: Date
}

// @MemberwiseInit
/// An authorization code, once redeemed: what it was bound to when `oauth.authorize` made it.
public struct OAuthCode: Sendable, Equatable {
    /// The app it was made for.
    public var appID: Int64
    /// The account that authorized it.
    public var userID: Int64
    /// The scopes it grants.
    public var scopes: OAuthScopes
    /// The redirect URI the token request must repeat.
    public var redirectURI: String
    /// When it stops being redeemable.
    public var expiresAt: Date
}

// @MemberwiseInit
/// An app's own token (`client_credentials`): no account, only its app and scopes.
public struct OAuthAppToken: Sendable, Equatable {
    /// The row's id.
    public var id: Int64
    /// Its app.
    public var appID: Int64
    /// Its scopes.
    public var scopes: OAuthScopes
    /// When it was revoked, if it was.
    public var revokedAt: Date?
}
