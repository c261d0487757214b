import Foundation
import PostgresNIO
import TwitterCore

/// Accounts and password hashes in PostgreSQL.
struct UserStore: UserStoring {
    let database: PostgresStore

    /// Checks both unique fields in the insert's transaction, so a taken field is named like the SQLite store
    /// names it; a concurrent signup that slips past the check hits the unique index and is named the same way.
    func createUser(email: String, username: String, passwordHash: String?) async throws -> User {
        do {
            return try await database.transaction { connection in
                if let conflict = UserRows.conflict(
                    try await UserRows.taken(connection, email: email, username: username))
                {
                    throw conflict
                }
                let now = Date().storagePrecision
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
            throw UserRows.conflict(from: error) ?? error
        }
    }

    /// Suspended or not, as in the SQLite store: who holds an id (a session, an admin) checks the standing apart.
    func user(id: Int64) async throws -> User? {
        try await database.read { connection in
            try await connection.firstRow(Prepared<ByID>(id)).map(UserRows.user(from:))
        }
    }

    enum ByID: PreparedText {
        static let sql = "SELECT \(UserRows.columns) FROM users WHERE id = $1"
    }

    /// Suspended or not: a login finds the account first, then refuses a suspended one giving the reason.
    func user(email: String) async throws -> User? {
        try await database.read { connection in
            try await connection.firstRow(Prepared<ByEmail>(UserRows.key(email))).map(UserRows.user(from:))
        }
    }

    enum ByEmail: PreparedText {
        static let sql = "SELECT \(UserRows.columns) FROM users WHERE email_key = $1"
    }

    /// Leaves out a suspended account, which others see as gone.
    func user(username: String) async throws -> User? {
        try await database.read { connection in
            try await connection.firstRow(
                """
                SELECT \(unescaped: UserRows.columns) FROM users
                WHERE username_key = \(UserRows.key(username)) AND suspended_at IS NULL
                """
            ).map(UserRows.user(from:))
        }
    }

    /// A suspended account's name, and a deleted one's while reserved, stay taken.
    func isUsernameTaken(_ username: String) async throws -> Bool {
        try await database.read { connection in
            try await UserRows.taken(connection, email: nil, username: username)["username"] != nil
        }
    }

    /// Nil both for a missing account and for one without a password.
    func passwordHash(userID: Int64) async throws -> String? {
        try await database.read { connection in
            try await connection.value(Prepared<PasswordHash>(userID), as: String.self)
        }
    }

    enum PasswordHash: PreparedText {
        static let sql = "SELECT password_hash FROM users WHERE id = $1"
    }

    /// A missing account is not an error, as in the SQLite store: there is nothing to protect.
    func setPasswordHash(_ hash: String, userID: Int64) async throws {
        try await database.transaction { connection in
            try await connection.run("UPDATE users SET password_hash = \(hash) WHERE id = \(userID)")
        }
    }
}
