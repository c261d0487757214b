import Foundation

/// OAuth as Mastodon clients use it, over twitterd's own credentials: registers apps, grants access tokens (an
/// account's is a personal token naming its app and scopes, so it logs in with the token provider and ends as
/// every token ends), makes and redeems authorization codes, revokes. Which account a password grant logs in is
/// the password provider's business (the daemon calls it, with the login throttle, before `grant`).
public struct OAuthService: Sendable {
    private let store: any OAuthStoring
    private let tokens: any TokenStoring
    private let sealer: any TokenSealing
    private let now: @Sendable () -> Date

    /// How long an authorization code may be redeemed: Mastodon's ten minutes.
    public static let codeLifetime: TimeInterval = 600
    /// The redirect URI of clients with none, which show the code to the user instead.
    public static let outOfBand = "urn:ietf:wg:oauth:2.0:oob"

    /// Creates the service.
    public init(
        store: any OAuthStoring, tokens: any TokenStoring, sealer: any TokenSealing,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.tokens = tokens
        self.sealer = sealer
        self.now = now
    }

    /// Registers an app; its secret is in the answer and nowhere else. `scopes` nil is Mastodon's default, `read`.
    public func registerApp(
        name: String, redirectURIs: [String], scopes: String?, website: String?
    ) async throws -> (app: OAuthApp, secret: String) {
        var fields: [String: String] = [:]
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.isEmpty || name.count > 200 { fields["name"] = "must be 1 to 200 characters" }
        // Any local process may register an app, and `twctl token list` prints its name to the account's terminal.
        if FreeText.containsControlCharacter(name, allowingNewline: false) {
            fields["name"] = "must not hold control characters"
        }
        let uris = redirectURIs.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if uris.isEmpty || uris.contains(where: { $0.count > 2000 || $0.contains(where: \.isNewline) }) {
            fields["redirectUris"] = "must name at least one redirect URI (\(Self.outOfBand) for none)"
        }
        let granted = OAuthScopes(parsing: scopes ?? "read")
        if granted == nil || granted?.isEmpty == true { fields["scopes"] = "must be Mastodon scopes" }
        if let website, website.count > 2000 { fields["website"] = "must be at most 2000 characters" }
        guard fields.isEmpty, let granted else { throw TwitterError.invalidFields(fields) }
        let secret = OAuthSecret.make(prefix: "twk_")
        let app = try await store.insertApp(
            clientID: OAuthSecret.make(prefix: "twc_"), secretHash: sealer.seal(secret), name: name,
            redirectURIs: uris, scopes: granted, website: website.flatMap { $0.isEmpty ? nil : $0 },
            createdAt: now())
        return (app, secret)
    }

    /// The app whose client id and secret these are; `invalid_client` otherwise, alike for both.
    public func authenticate(clientID: String, secret: String) async throws -> OAuthApp {
        guard let found = try await store.app(clientID: clientID),
            OAuthSecret.equal(sealer.seal(secret), found.secretHash)
        else { throw OAuthError.invalidClient }
        return found.app
    }

    /// The app of a public client id (`oauth.authorize`, which has no secret); `invalid_client` otherwise.
    public func app(clientID: String) async throws -> OAuthApp {
        guard let found = try await store.app(clientID: clientID) else { throw OAuthError.invalidClient }
        return found.app
    }

    /// The app `id`.
    public func app(id: Int64) async throws -> OAuthApp? {
        try await store.app(id: id)
    }

    /// The scopes asked for, within the app's: nil or empty asks for `read`, as Mastodon's default.
    public func scopes(requested: String?, of app: OAuthApp) throws -> OAuthScopes {
        let text = requested.flatMap { $0.isEmpty ? nil : $0 } ?? "read"
        guard let asked = OAuthScopes(parsing: text), !asked.isEmpty, app.scopes.includes(asked) else {
            throw OAuthError.invalidScope
        }
        return asked
    }

    /// A new access token for `userID` from `app` with `scopes`; the secret is in the answer and nowhere else.
    public func grant(userID: Int64, app: OAuthApp, scopes: OAuthScopes) async throws -> (TokenRecord, String) {
        let token = sealer.makeToken(kind: .personal)
        let record = try await store.insertAccessToken(
            userID: userID, appID: app.id, name: app.name, scopes: scopes, hash: sealer.seal(token), createdAt: now())
        return (record, token)
    }

    /// A new code for `userID` to hand `app`, bound to `scopes` and `redirectURI` (one the app registered).
    public func authorize(
        userID: Int64, app: OAuthApp, scopes: OAuthScopes, redirectURI: String?
    ) async throws -> (code: String, redirectURI: String, expiresAt: Date) {
        let redirect = redirectURI.flatMap { $0.isEmpty ? nil : $0 } ?? app.redirectURIs.first ?? Self.outOfBand
        guard app.redirectURIs.contains(redirect) else { throw OAuthError.invalidRedirectURI }
        let code = OAuthSecret.make(prefix: "twg_")
        let moment = now()
        let expiresAt = moment.addingTimeInterval(Self.codeLifetime)
        try await store.insertCode(
            hash: sealer.seal(code), appID: app.id, userID: userID, scopes: scopes, redirectURI: redirect,
            createdAt: moment, expiresAt: expiresAt)
        return (code, redirect, expiresAt)
    }

    /// Redeems `code` for `app` (once, whatever follows): it must be the app's, unexpired, and the redirect URI the
    /// one it was made for; `invalid_grant` otherwise, alike.
    public func redeem(code: String, app: OAuthApp, redirectURI: String?) async throws -> OAuthCode {
        guard let redeemed = try await store.redeemCode(hash: sealer.seal(code), at: now()),
            redeemed.appID == app.id, redeemed.expiresAt > now(),
            redeemed.redirectURI == (redirectURI.flatMap { $0.isEmpty ? nil : $0 } ?? redeemed.redirectURI)
        else { throw OAuthError.invalidGrant("The authorization code is invalid, expired, used or another app's") }
        return redeemed
    }

    /// A new token of the app itself (`client_credentials`).
    public func grantAppToken(app: OAuthApp, scopes: OAuthScopes) async throws -> (OAuthAppToken, String) {
        let token = OAuthSecret.make(prefix: "twa_")
        let record = try await store.insertAppToken(
            appID: app.id, scopes: scopes, hash: sealer.seal(token), createdAt: now())
        return (record, token)
    }

    /// The app of a live app token, or of a live account's access token; nil for anything else.
    public func appOfToken(_ token: String) async throws -> OAuthApp? {
        let hash = sealer.seal(token)
        if let appToken = try await store.appToken(hash: hash), appToken.revokedAt == nil {
            return try await store.app(id: appToken.appID)
        }
        guard sealer.kind(of: token) == .personal, let record = try await tokens.token(hash: hash),
            record.revokedAt == nil, let appID = record.appID
        else { return nil }
        if let expiresAt = record.expiresAt, expiresAt <= now() { return nil }
        return try await store.app(id: appID)
    }

    /// Revokes `token` if it is `app`'s (an account's access token or the app's own): the revocation a live login
    /// resting on it must hear, nil when nothing was revoked (unknown, another app's, revoked already), which
    /// RFC 7009 answers alike so a token's existence is not told.
    public func revoke(token: String, of app: OAuthApp) async throws -> Revocation? {
        let hash = sealer.seal(token)
        if let appToken = try await store.appToken(hash: hash), appToken.appID == app.id {
            _ = try await store.revokeAppToken(id: appToken.id, at: now())
            return nil
        }
        guard let record = try await tokens.token(hash: hash), record.appID == app.id, record.revokedAt == nil,
            try await tokens.revokeToken(id: record.id, userID: record.userID, reason: .tokenRevoked, at: now())
        else { return nil }
        return .token(id: record.id, userID: record.userID, reason: .tokenRevoked)
    }
}

/// The OAuth errors (RFC 6749 5.2) as the domain's error, their code in `details["oauthError"]`, so an adapter
/// answers the OAuth body and status Mastodon does.
public enum OAuthError {
    /// An unknown client or a wrong secret.
    public static let invalidClient = TwitterError(
        .invalidCredentials, "Client authentication failed: unknown client or wrong secret",
        details: ["oauthError": .string("invalid_client")])
    /// A scope the app was not registered for, or none Mastodon knows.
    public static let invalidScope = TwitterError(
        .invalidParams, "The requested scope is invalid, unknown, or beyond the app's",
        details: ["oauthError": .string("invalid_scope")])
    /// A redirect URI the app did not register.
    public static let invalidRedirectURI = TwitterError(
        .invalidParams, "The redirect URI is not one the app registered",
        details: ["oauthError": .string("invalid_grant")])
    /// A grant type not offered.
    public static let unsupportedGrantType = TwitterError(
        .invalidParams, "The grant type is not supported: use password, authorization_code or client_credentials",
        details: ["oauthError": .string("unsupported_grant_type")])

    /// A code, password or other grant that does not hold.
    public static func invalidGrant(_ message: String) -> TwitterError {
        TwitterError(.invalidCredentials, message, details: ["oauthError": .string("invalid_grant")])
    }
}

/// Random secrets of OAuth: client ids and secrets, codes, app tokens. 32 bytes of the system's cryptographic
/// generator (getrandom on Linux) in lowercase hex after a readable prefix.
enum OAuthSecret {
    static func make(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        var text = prefix
        for _ in 0..<4 {
            let word = generator.next() as UInt64
            let hex = String(word, radix: 16)
            text += String(repeating: "0", count: 16 - hex.count) + hex
        }
        return text
    }

    /// Compares two hashes in time that does not depend on where they differ.
    static func equal(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }
}
