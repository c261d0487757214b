import Foundation
import TwitterCore

// @MemberwiseInit
/// Accounts and password hashes.
public struct UserStore: UserStoring {
    let database: any SQLDatabase

    /// Checks both unique fields in the insert's transaction; a concurrent signup that slips past the check hits
    /// the unique index and is named the same way.
    public func createUser(email: String, username: String, passwordHash: String?) async throws -> User {
        do {
            return try await database.transaction { connection in
                if let conflict = UserRows.conflict(
                    try await UserRows.taken(connection, email: email, username: username))
                {
                    throw conflict
                }
                let now = connection.dialect.stored(Date())
                guard
                    let id = try await connection.value(
                        """
                        INSERT INTO users (username, username_key, email, email_key, password_hash, created_at,
                            updated_at)
                        VALUES (\(username), \(UserRows.key(username)), \(email), \(UserRows.key(email)),
                            \(passwordHash), \(now), \(now))
                        RETURNING id
                        """, as: Int64.self)
                else { throw TwitterError(.internal, "The account just written has no id") }
                return User(id: id, username: username, email: email, createdAt: now)
            }
        } catch {
            throw UserRows.conflict(from: error, in: database) ?? error
        }
    }

    /// Suspended or not: who holds an id (a session, an admin) checks the standing apart.
    public func user(id: Int64) async throws -> User? {
        try await database.read { connection in
            try await connection.firstRow(SQLQuery(ByID.self, id)).map(UserRows.user(from:))
        }
    }

    private enum ByID: SQLText {
        static let sql: SQLQuery = "SELECT \(unescaped: UserRows.columns) FROM users WHERE id = \(param: 1)"
    }

    /// Suspended or not: a login finds the account first, then refuses a suspended one giving the reason.
    public func user(email: String) async throws -> User? {
        try await database.read { connection in
            try await connection.firstRow(SQLQuery(ByEmail.self, UserRows.key(email))).map(UserRows.user(from:))
        }
    }

    private enum ByEmail: SQLText {
        static let sql: SQLQuery = "SELECT \(unescaped: UserRows.columns) FROM users WHERE email_key = \(param: 1)"
    }

    /// Leaves out a suspended account, which others see as gone.
    public func user(username: String) async throws -> User? {
        try await database.read { connection in
            try await UserRows.shown(connection, username: username).map(UserRows.user(from:))
        }
    }

    /// A suspended account's name, and a deleted one's while reserved, stay taken.
    public func isUsernameTaken(_ username: String) async throws -> Bool {
        try await database.read { connection in
            try await UserRows.taken(connection, email: nil, username: username)["username"] != nil
        }
    }

    /// Nil both for a missing account and for one without a password.
    public func passwordHash(userID: Int64) async throws -> String? {
        try await database.read { connection in
            try await connection.value(SQLQuery(PasswordHash.self, userID), as: String.self)
        }
    }

    private enum PasswordHash: SQLText {
        static let sql: SQLQuery = "SELECT password_hash FROM users WHERE id = \(param: 1)"
    }

    /// A missing account is not an error: there is nothing to protect.
    public func setPasswordHash(_ hash: String, userID: Int64) async throws {
        try await database.transaction { connection in
            try await connection.run("UPDATE users SET password_hash = \(hash) WHERE id = \(userID)")
        }
    }
}
