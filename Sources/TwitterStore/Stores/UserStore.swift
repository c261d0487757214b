import Foundation
import GRDB
import TwitterCore

/// Accounts and password hashes in SQLite.
public struct UserStore: UserStoring {
    let database: AppDatabase

    /// Creates the store over `database`.
    public init(database: AppDatabase) {
        self.database = database
    }

    /// Creates an account, checking both unique fields in the same transaction as the insert.
    public func createUser(email: String, username: String, passwordHash: String?) async throws -> User {
        try await database.writer.write { db in
            let emailKey = UserRecord.key(email)
            let usernameKey = UserRecord.key(username)
            var taken: [String: String] = [:]
            if try UserRecord.filter(UserRecord.Columns.emailKey == emailKey).fetchCount(db) > 0 {
                taken["email"] = "Email is already taken"
            }
            if try UserRecord.filter(UserRecord.Columns.usernameKey == usernameKey).fetchCount(db) > 0
                || AccountStanding.isReserved(db, usernameKey: usernameKey)
            {
                taken["username"] = "Username is already taken"
            }
            guard taken.isEmpty else {
                throw TwitterError(.conflict, taken.values.sorted().joined(separator: "; "), fields: taken)
            }
            let now = Date().storagePrecision
            var record = UserRecord(
                id: nil, username: username, usernameKey: usernameKey, email: email, emailKey: emailKey,
                passwordHash: passwordHash, firstName: "", lastName: "", age: nil, bio: "", version: 1,
                createdAt: now, updatedAt: now
            )
            try record.insert(db)
            return record.user
        }
    }

    /// The account with `id`.
    public func user(id: Int64) async throws -> User? {
        try await database.writer.read { db in try UserRecord.fetchOne(db, key: id)?.user }
    }

    /// The account whose e-mail is `email`, ignoring case.
    public func user(email: String) async throws -> User? {
        try await database.writer.read { db in
            try UserRecord.filter(UserRecord.Columns.emailKey == UserRecord.key(email)).fetchOne(db)?.user
        }
    }

    /// The account whose username is `username`, ignoring case, unless it is suspended.
    public func user(username: String) async throws -> User? {
        try await database.writer.read { db in
            try UserRecord.filter(
                UserRecord.Columns.usernameKey == UserRecord.key(username) && Column("suspended_at") == nil
            ).fetchOne(db)?.user
        }
    }

    /// Whether `username` is taken, ignoring case: by an account, suspended or not, or reserved after a deletion.
    public func isUsernameTaken(_ username: String) async throws -> Bool {
        try await database.writer.read { db in
            let key = UserRecord.key(username)
            return try UserRecord.filter(UserRecord.Columns.usernameKey == key).fetchCount(db) > 0
                || AccountStanding.isReserved(db, usernameKey: key)
        }
    }

    /// The stored password hash.
    public func passwordHash(userID: Int64) async throws -> String? {
        try await database.writer.read { db in
            try String.fetchOne(db, UserRecord.select(UserRecord.Columns.passwordHash).filter(key: userID))
        }
    }

    /// Replaces the password hash.
    public func setPasswordHash(_ hash: String, userID: Int64) async throws {
        _ = try await database.writer.write { db in
            try UserRecord.filter(key: userID).updateAll(db, UserRecord.Columns.passwordHash.set(to: hash))
        }
    }
}
