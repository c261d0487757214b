import Foundation
import PostgresNIO
import TwitterCore

/// Session and personal tokens in PostgreSQL.
struct TokenStore: TokenStoring {
    let database: PostgresStore

    func insertToken(userID: Int64, kind: TokenKind, name: String, hash: [UInt8], createdAt: Date, expiresAt: Date?)
        async throws -> TokenRecord
    {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func token(hash: [UInt8]) async throws -> TokenRecord? {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func touchToken(id: Int64, usedAt: Date, expiresAt: Date?) async throws {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func revokeToken(id: Int64, userID: Int64, at date: Date) async throws -> Bool {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func revokeSessions(userID: Int64, keeping: Int64?, at date: Date) async throws {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func tokens(userID: Int64, kind: TokenKind) async throws -> [TokenRecord] {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }
}
