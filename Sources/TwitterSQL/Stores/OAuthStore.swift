import Foundation
import TwitterCore

// @MemberwiseInit
/// OAuth apps, their authorization codes and app tokens; an account's access token is a row of `tokens` (a
/// personal token naming its app and scopes), so it ends as every token does (`TokenStore+Revocations`).
public struct OAuthStore: OAuthStoring {
    let database: any SQLDatabase

    /// The columns `app(from:)` reads.
    static let appColumns = "id, client_id, name, redirect_uris, scopes, website, created_at"

    /// The redirect URIs are kept one a line: a URI holds no line break.
    public func insertApp(
        clientID: String, secretHash: [UInt8], name: String, redirectURIs: [String], scopes: OAuthScopes,
        website: String?, createdAt: Date
    ) async throws -> OAuthApp {
        try await database.transaction { connection in
            let createdAt = connection.dialect.stored(createdAt)
            guard
                let id = try await connection.value(
                    """
                    INSERT INTO oauth_apps (client_id, secret_hash, name, redirect_uris, scopes, website, created_at)
                    VALUES (\(clientID), \(Data(secretHash)), \(name), \(redirectURIs.joined(separator: "\n")),
                        \(scopes.text), \(website, as: .text), \(createdAt))
                    RETURNING id
                    """, as: Int64.self)
            else { throw TwitterError(.internal, "The app just written has no id") }
            return OAuthApp(
                id: id, clientID: clientID, name: name, redirectURIs: redirectURIs, scopes: scopes, website: website,
                createdAt: createdAt)
        }
    }

    /// The app by its public client id, with its secret's hash for the caller to compare.
    public func app(clientID: String) async throws -> (app: OAuthApp, secretHash: [UInt8])? {
        try await database.read { connection in
            guard
                let row = try await connection.firstRow(
                    """
                    SELECT \(unescaped: Self.appColumns), secret_hash FROM oauth_apps WHERE client_id = \(clientID)
                    """)
            else { return nil }
            return (try Self.app(from: row), Array(try row.column("secret_hash", as: Data.self)))
        }
    }

    /// The app by its row's id.
    public func app(id: Int64) async throws -> OAuthApp? {
        try await database.read { connection in
            try await connection.firstRow(
                "SELECT \(unescaped: Self.appColumns) FROM oauth_apps WHERE id = \(id)"
            ).map(Self.app(from:))
        }
    }

    /// The code by its hash; its uniqueness refuses a second code of the same hash.
    public func insertCode(
        hash: [UInt8], appID: Int64, userID: Int64, scopes: OAuthScopes, redirectURI: String, createdAt: Date,
        expiresAt: Date
    ) async throws {
        try await database.transaction { connection in
            try await connection.run(
                """
                INSERT INTO oauth_codes (hash, app_id, user_id, scopes, redirect_uri, created_at, expires_at)
                VALUES (\(Data(hash)), \(appID), \(userID), \(scopes.text), \(redirectURI),
                    \(connection.dialect.stored(createdAt)), \(connection.dialect.stored(expiresAt)))
                """)
        }
    }

    /// One statement marks it used and returns it, so two redemptions racing can not both get it.
    public func redeemCode(hash: [UInt8], at date: Date) async throws -> OAuthCode? {
        try await database.transaction { connection in
            guard
                let row = try await connection.firstRow(
                    """
                    UPDATE oauth_codes SET used_at = \(connection.dialect.stored(date))
                    WHERE hash = \(Data(hash)) AND used_at IS NULL
                    RETURNING app_id, user_id, scopes, redirect_uri, expires_at
                    """)
            else { return nil }
            return OAuthCode(
                appID: try row.column("app_id"), userID: try row.column("user_id"),
                scopes: Self.scopes(try row.column("scopes")), redirectURI: try row.column("redirect_uri"),
                expiresAt: try row.column("expires_at"))
        }
    }

    /// A personal token's row that names its app and scopes; it never expires by itself, as Mastodon's do not.
    public func insertAccessToken(
        userID: Int64, appID: Int64, name: String, scopes: OAuthScopes, hash: [UInt8], createdAt: Date
    ) async throws -> TokenRecord {
        try await database.transaction { connection in
            let createdAt = connection.dialect.stored(createdAt)
            guard
                let id = try await connection.value(
                    """
                    INSERT INTO tokens (user_id, kind, name, hash, created_at, app_id, scopes)
                    VALUES (\(userID), \(TokenKind.personal.rawValue), \(name), \(Data(hash)), \(createdAt),
                        \(appID), \(scopes.text))
                    RETURNING id
                    """, as: Int64.self)
            else { throw TwitterError(.internal, "The token just written has no id") }
            return TokenRecord(
                id: id, userID: userID, kind: .personal, name: name, createdAt: createdAt, expiresAt: nil,
                lastUsedAt: nil, revokedAt: nil, appID: appID, scopes: scopes)
        }
    }

    /// An app's own token, of no account.
    public func insertAppToken(appID: Int64, scopes: OAuthScopes, hash: [UInt8], createdAt: Date) async throws
        -> OAuthAppToken
    {
        try await database.transaction { connection in
            guard
                let id = try await connection.value(
                    """
                    INSERT INTO oauth_app_tokens (hash, app_id, scopes, created_at)
                    VALUES (\(Data(hash)), \(appID), \(scopes.text), \(connection.dialect.stored(createdAt)))
                    RETURNING id
                    """, as: Int64.self)
            else { throw TwitterError(.internal, "The app token just written has no id") }
            return OAuthAppToken(id: id, appID: appID, scopes: scopes, revokedAt: nil)
        }
    }

    /// Revoked ones are found too: the caller tells them apart.
    public func appToken(hash: [UInt8]) async throws -> OAuthAppToken? {
        try await database.read { connection in
            try await connection.firstRow(
                "SELECT id, app_id, scopes, revoked_at FROM oauth_app_tokens WHERE hash = \(Data(hash))"
            ).map { row in
                OAuthAppToken(
                    id: try row.column("id"), appID: try row.column("app_id"),
                    scopes: Self.scopes(try row.column("scopes")), revokedAt: try row.column("revoked_at"))
            }
        }
    }

    /// Only a live one: revoking twice answers false.
    public func revokeAppToken(id: Int64, at date: Date) async throws -> Bool {
        try await database.transaction { connection in
            try await connection.value(
                """
                UPDATE oauth_app_tokens SET revoked_at = \(connection.dialect.stored(date))
                WHERE id = \(id) AND revoked_at IS NULL RETURNING id
                """, as: Int64.self) != nil
        }
    }

    /// A stored list of scopes; one this version does not know grants nothing rather than failing the read.
    static func scopes(_ text: String) -> OAuthScopes {
        OAuthScopes(parsing: text) ?? OAuthScopes([])
    }

    static func app(from row: SQLRow) throws -> OAuthApp {
        OAuthApp(
            id: try row.column("id"), clientID: try row.column("client_id"), name: try row.column("name"),
            redirectURIs: try row.column("redirect_uris", as: String.self).split(separator: "\n").map(String.init),
            scopes: scopes(try row.column("scopes")), website: try row.column("website"),
            createdAt: try row.column("created_at"))
    }
}
