import Foundation
import PostgresNIO
import TwitterCore

/// Session and personal tokens in PostgreSQL, found by their keyed hash; the secret itself is never stored.
struct TokenStore: TokenStoring {
    let database: PostgresStore

    /// The columns `record(from:)` reads.
    static let columns = "id, user_id, kind, name, created_at, expires_at, last_used_at, revoked_at"

    /// The hash goes in as `Data`, which postgres-nio binds as bytea (an `[UInt8]` would bind as an array).
    func insertToken(userID: Int64, kind: TokenKind, name: String, hash: [UInt8], createdAt: Date, expiresAt: Date?)
        async throws -> TokenRecord
    {
        let createdAt = createdAt.storagePrecision
        let expiresAt = expiresAt?.storagePrecision
        return try await database.transaction { connection in
            guard
                let id = try await connection.value(
                    Prepared<Insert>(userID, kind.rawValue, name, Data(hash), createdAt, expiresAt), as: Int64.self)
            else { throw TwitterError(.internal, "The token just written has no id") }
            return TokenRecord(
                id: id, userID: userID, kind: kind, name: name, createdAt: createdAt, expiresAt: expiresAt,
                lastUsedAt: nil, revokedAt: nil)
        }
    }

    enum Insert: PreparedText {
        static let sql = """
            INSERT INTO tokens (user_id, kind, name, hash, created_at, expires_at)
            VALUES ($1, $2, $3, $4, $5, $6::timestamptz)
            RETURNING id
            """
    }

    /// Revoked and expired tokens are found too: the caller tells them apart and says why it refuses one.
    func token(hash: [UInt8]) async throws -> TokenRecord? {
        try await database.read { connection in
            try await connection.firstRow(Prepared<ByHash>(Data(hash))).map(Self.record(from:))
        }
    }

    enum ByHash: PreparedText {
        static let sql = "SELECT \(TokenStore.columns) FROM tokens WHERE hash = $1"
    }

    /// Keeps the expiry when none is given: only sessions slide.
    func touchToken(id: Int64, usedAt: Date, expiresAt: Date?) async throws {
        try await database.transaction { connection in
            try await connection.run(Prepared<Touch>(usedAt.storagePrecision, expiresAt?.storagePrecision, id))
        }
    }

    enum Touch: PreparedText {
        static let sql = """
            UPDATE tokens SET last_used_at = $1, expires_at = COALESCE($2::timestamptz, expires_at) WHERE id = $3
            """
    }

    /// Only the owner's live token: revoking twice, or another's, answers false.
    func revokeToken(id: Int64, userID: Int64, at date: Date) async throws -> Bool {
        try await database.transaction { connection in
            try await connection.value(
                """
                UPDATE tokens SET revoked_at = \(date.storagePrecision)
                WHERE id = \(id) AND user_id = \(userID) AND revoked_at IS NULL RETURNING id
                """, as: Int64.self) != nil
        }
    }

    /// Personal tokens stay: they are revoked one by one.
    func revokeSessions(userID: Int64, keeping: Int64?, at date: Date) async throws {
        try await database.transaction { connection in
            try await connection.run(
                """
                UPDATE tokens SET revoked_at = \(date.storagePrecision)
                WHERE user_id = \(userID) AND kind = \(TokenKind.session.rawValue) AND revoked_at IS NULL
                    AND (\(keeping)::bigint IS NULL OR id <> \(keeping))
                """)
        }
    }

    /// Newest first by id, which grows with time.
    func tokens(userID: Int64, kind: TokenKind) async throws -> [TokenRecord] {
        try await database.read { connection in
            try await connection.rows(
                """
                SELECT \(unescaped: Self.columns) FROM tokens
                WHERE user_id = \(userID) AND kind = \(kind.rawValue) AND revoked_at IS NULL ORDER BY id DESC
                """
            ).map(Self.record(from:))
        }
    }

    /// The record a row of `columns` holds; a kind this version does not know reads as personal, as in the
    /// SQLite store.
    static func record(from row: PostgresRandomAccessRow) throws -> TokenRecord {
        TokenRecord(
            id: try row.column("id"), userID: try row.column("user_id"),
            kind: TokenKind(rawValue: try row.column("kind")) ?? .personal, name: try row.column("name"),
            createdAt: try row.column("created_at"), expiresAt: try row.column("expires_at"),
            lastUsedAt: try row.column("last_used_at"), revokedAt: try row.column("revoked_at"))
    }
}
