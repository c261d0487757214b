import Foundation
import GRDB
import TwitterCore

/// A row of `tokens`.
struct TokenRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "tokens"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    var id: Int64?
    var userId: Int64
    var kind: String
    var name: String
    var hash: Data
    var createdAt: Date
    var expiresAt: Date?
    var lastUsedAt: Date?
    var revokedAt: Date?

    enum Columns {
        static let id = Column("id")
        static let userId = Column("user_id")
        static let kind = Column("kind")
        static let hash = Column("hash")
        static let createdAt = Column("created_at")
        static let revokedAt = Column("revoked_at")
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    var record: TokenRecord {
        TokenRecord(
            id: id ?? 0, userID: userId, kind: TokenKind(rawValue: kind) ?? .personal, name: name,
            createdAt: createdAt, expiresAt: expiresAt, lastUsedAt: lastUsedAt, revokedAt: revokedAt
        )
    }
}
