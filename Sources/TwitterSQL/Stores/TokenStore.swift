import Foundation
import TwitterCore

// @MemberwiseInit
/// Session and personal tokens, found by their keyed hash; the secret itself is never stored.
///
/// A revocation that live connections rest on is an ordered write that logs it for the other daemons on the
/// database in the same transaction (`TokenStore+Revocations`), so none commits without its broadcast.
public struct TokenStore: TokenStoring {
    let database: any SQLDatabase
    /// Who hears of the revocations committed here (the other daemons read them from the commit log); nobody by
    /// default (tests of the rows).
    var observer: any CommitObserving = UnobservedCommits()
    /// The identity of this daemon's machine (`HostIdentity`), whose uids this store's links name; "" for a store
    /// of no host (tests).
    var host: String = ""

    /// The columns `record(from:)` reads.
    static let columns = "id, user_id, kind, name, created_at, expires_at, last_used_at, revoked_at, app_id, scopes"

    /// The hash goes in as bytes (`Data`: a blob, a bytea).
    public func insertToken(
        userID: Int64, kind: TokenKind, name: String, hash: [UInt8], createdAt: Date, expiresAt: Date?,
        mintedByPeer: UInt32?
    ) async throws -> TokenRecord {
        try await database.transaction { [host] connection in
            let createdAt = connection.dialect.stored(createdAt)
            let expiresAt = expiresAt.map(connection.dialect.stored)
            guard
                let id = try await connection.value(
                    SQLQuery(
                        Insert.self, userID, kind.rawValue, name, Data(hash), createdAt, expiresAt,
                        mintedByPeer.map { _ in host }, mintedByPeer.map(Int64.init)),
                    as: Int64.self)
            else { throw TwitterError(.internal, "The token just written has no id") }
            return TokenRecord(
                id: id, userID: userID, kind: kind, name: name, createdAt: createdAt, expiresAt: expiresAt,
                lastUsedAt: nil, revokedAt: nil)
        }
    }

    private enum Insert: SQLText {
        static let sql: SQLQuery = """
            INSERT INTO tokens (user_id, kind, name, hash, created_at, expires_at, peer_host, peer_uid)
            VALUES (\(param: 1), \(param: 2), \(param: 3), \(param: 4), \(param: 5), \(param: 6, as: .date), \(param: 7, as: .text), \(param: 8, as: .integer))
            RETURNING id
            """
    }

    /// Revoked and expired tokens are found too: the caller tells them apart and says why it refuses one.
    public func token(hash: [UInt8]) async throws -> TokenRecord? {
        try await database.read { connection in
            try await connection.firstRow(SQLQuery(ByHash.self, Data(hash))).map(Self.record(from:))
        }
    }

    private enum ByHash: SQLText {
        static let sql: SQLQuery = "SELECT \(unescaped: TokenStore.columns) FROM tokens WHERE hash = \(param: 1)"
    }

    /// Keeps the expiry when none is given: only sessions slide.
    public func touchToken(id: Int64, usedAt: Date, expiresAt: Date?) async throws {
        try await database.transaction { connection in
            try await connection.run(
                SQLQuery(
                    Touch.self, connection.dialect.stored(usedAt), expiresAt.map(connection.dialect.stored), id))
        }
    }

    private enum Touch: SQLText {
        static let sql: SQLQuery = """
            UPDATE tokens SET last_used_at = \(param: 1), expires_at = COALESCE(\(param: 2, as: .date), expires_at) WHERE id = \(param: 3)
            """
    }

    /// The link's own sessions by (host, uid); a peer session of no recorded link was minted before sessions
    /// remembered theirs, and may be this link's, so it ends too.
    public func revokeSessions(userID: Int64, mintedByPeer uid: UInt32, at date: Date) async throws -> [Int64] {
        try await database.orderedWrite(reportingTo: observer) { connection in
            let ended = try await connection.values(
                """
                UPDATE tokens SET revoked_at = \(connection.dialect.stored(date))
                WHERE user_id = \(userID) AND kind = \(TokenKind.session.rawValue) AND revoked_at IS NULL
                    AND ((peer_host = \(host) AND peer_uid = \(Int64(uid))) OR (peer_uid IS NULL AND name = 'peer'))
                RETURNING id
                """, as: Int64.self)
            let told: [CommitEvent] =
                ended.isEmpty ? [] : [.account(.revoked(.sessions(ids: ended, userID: userID, reason: .peerUnlinked)))]
            return (ended, told)
        }
    }

    /// Newest first by id, which grows with time.
    public func tokens(userID: Int64, kind: TokenKind) async throws -> [TokenRecord] {
        try await database.read { connection in
            try await connection.rows(
                """
                SELECT \(unescaped: Self.columns) FROM tokens
                WHERE user_id = \(userID) AND kind = \(kind.rawValue) AND revoked_at IS NULL ORDER BY id DESC
                """
            ).map(Self.record(from:))
        }
    }

    /// The record a row of `columns` holds; a kind this version does not know reads as personal.
    static func record(from row: SQLRow) throws -> TokenRecord {
        TokenRecord(
            id: try row.column("id"), userID: try row.column("user_id"),
            kind: TokenKind(rawValue: try row.column("kind")) ?? .personal, name: try row.column("name"),
            createdAt: try row.column("created_at"), expiresAt: try row.column("expires_at"),
            lastUsedAt: try row.column("last_used_at"), revokedAt: try row.column("revoked_at"),
            appID: try row.column("app_id"),
            scopes: try row.column("scopes", as: String?.self).map { OAuthScopes(parsing: $0) ?? OAuthScopes([]) })
    }
}
