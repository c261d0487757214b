import Foundation
import GRDB
import TwitterCore

/// A row of `users`.
struct UserRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "users"
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    var id: Int64?
    var username: String
    var usernameKey: String
    var email: String
    var emailKey: String
    var passwordHash: String?
    var firstName: String
    var lastName: String
    var age: Int?
    var bio: String
    var version: Int
    var createdAt: Date
    var updatedAt: Date

    enum Columns {
        static let id = Column("id")
        static let usernameKey = Column("username_key")
        static let emailKey = Column("email_key")
        static let passwordHash = Column("password_hash")
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The case-folded form that uniqueness is checked on.
    static func key(_ text: String) -> String {
        text.lowercased()
    }

    var profile: Profile {
        Profile(
            username: username, email: email, firstName: firstName, lastName: lastName, age: age, bio: bio,
            version: version, updatedAt: updatedAt
        )
    }

    var user: User {
        User(id: id ?? 0, username: username, email: email, createdAt: createdAt)
    }
}
