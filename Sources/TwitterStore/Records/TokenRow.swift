import Foundation
import GRDB
import TwitterCore

/// A row of `token`.
struct TokenRow: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "token"

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
        static let id = Column(CodingKeys.id)
        static let userId = Column(CodingKeys.userId)
        static let kind = Column(CodingKeys.kind)
        static let hash = Column(CodingKeys.hash)
        static let createdAt = Column(CodingKeys.createdAt)
        static let revokedAt = Column(CodingKeys.revokedAt)
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
