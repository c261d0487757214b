import Foundation

/// Durable storage of OAuth apps, authorization codes and app tokens. An account's OAuth access token is a
/// personal token of the tokens table (`TokenStoring`) that names its app and scopes, so every way a token
/// ends (revocation, expiry, password reset, suspension, deletion) ends it too.
public protocol OAuthStoring: Sendable {
    /// Stores a new app whose secret's keyed hash is `secretHash`.
    func insertApp(
        clientID: String, secretHash: [UInt8], name: String, redirectURIs: [String], scopes: OAuthScopes,
        website: String?, createdAt: Date
    ) async throws -> OAuthApp
    /// The app of `clientID` with its secret's hash; nil when there is none.
    func app(clientID: String) async throws -> (app: OAuthApp, secretHash: [UInt8])?
    /// The app `id`.
    func app(id: Int64) async throws -> OAuthApp?
    /// Stores an authorization code by its hash.
    func insertCode(
        hash: [UInt8], appID: Int64, userID: Int64, scopes: OAuthScopes, redirectURI: String, createdAt: Date,
        expiresAt: Date
    ) async throws
    /// Marks the code of `hash` used and returns what it was bound to; nil when it is unknown or was used
    /// already (a code is redeemed once, even by a request that then fails its checks).
    func redeemCode(hash: [UInt8], at date: Date) async throws -> OAuthCode?
    /// Stores an account's access token for `appID` with `scopes`: a personal token named after the app.
    func insertAccessToken(
        userID: Int64, appID: Int64, name: String, scopes: OAuthScopes, hash: [UInt8], createdAt: Date
    ) async throws -> TokenRecord
    /// Stores an app's own token.
    func insertAppToken(appID: Int64, scopes: OAuthScopes, hash: [UInt8], createdAt: Date) async throws
        -> OAuthAppToken
    /// The app token of `hash`, revoked or not.
    func appToken(hash: [UInt8]) async throws -> OAuthAppToken?
    /// Revokes the app token `id`; false when it was not live.
    func revokeAppToken(id: Int64, at date: Date) async throws -> Bool
}
