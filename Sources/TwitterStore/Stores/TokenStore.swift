import Foundation
import GRDB
import TwitterCore

/// Tokens in SQLite, found by their keyed hash; the secret itself is never stored.
public struct TokenStore: TokenStoring {
    let database: AppDatabase

    /// Creates the store over `database`.
    public init(database: AppDatabase) {
        self.database = database
    }

    /// Stores a new token.
    public func insertToken(
        userID: Int64, kind: TokenKind, name: String, hash: [UInt8], createdAt: Date, expiresAt: Date?
    ) async throws -> TokenRecord {
        try await database.writer.write { db in
            var row = TokenRow(
                id: nil, userId: userID, kind: kind.rawValue, name: name, hash: Data(hash),
                createdAt: createdAt.storagePrecision,
                expiresAt: expiresAt?.storagePrecision, lastUsedAt: nil, revokedAt: nil
            )
            try row.insert(db)
            return row.record
        }
    }

    /// The token whose hash is `hash`.
    public func token(hash: [UInt8]) async throws -> TokenRecord? {
        try await database.writer.read { db in
            try TokenRow.filter(TokenRow.Columns.hash == Data(hash)).fetchOne(db)?.record
        }
    }

    /// Records a use and slides the expiry.
    public func touchToken(id: Int64, usedAt: Date, expiresAt: Date?) async throws {
        try await database.writer.write { db in
            guard var row = try TokenRow.fetchOne(db, key: id) else { return }
            row.lastUsedAt = usedAt.storagePrecision
            if let expiresAt { row.expiresAt = expiresAt.storagePrecision }
            try row.update(db)
        }
    }

    /// Revokes one live token of `userID`.
    public func revokeToken(id: Int64, userID: Int64, at date: Date) async throws -> Bool {
        try await database.writer.write { db in
            try TokenRow
                .filter(key: id)
                .filter(TokenRow.Columns.userId == userID && TokenRow.Columns.revokedAt == nil)
                .updateAll(db, TokenRow.Columns.revokedAt.set(to: date)) > 0
        }
    }

    /// Revokes every session of `userID` but `keeping`.
    public func revokeSessions(userID: Int64, keeping: Int64?, at date: Date) async throws {
        try await database.writer.write { db in
            var request = TokenRow.filter(
                TokenRow.Columns.userId == userID && TokenRow.Columns.kind == TokenKind.session.rawValue
                    && TokenRow.Columns.revokedAt == nil
            )
            if let keeping { request = request.filter(TokenRow.Columns.id != keeping) }
            try request.updateAll(db, TokenRow.Columns.revokedAt.set(to: date))
        }
    }

    /// The live tokens of one kind, newest first.
    public func tokens(userID: Int64, kind: TokenKind) async throws -> [TokenRecord] {
        try await database.writer.read { db in
            try TokenRow
                .filter(TokenRow.Columns.userId == userID && TokenRow.Columns.kind == kind.rawValue)
                .filter(TokenRow.Columns.revokedAt == nil)
                .order(TokenRow.Columns.id.desc)
                .fetchAll(db)
                .map(\.record)
        }
    }
}
