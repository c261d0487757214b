import Foundation
import PostgresNIO
import TwitterCore

/// How `users` rows are read by the user and profile stores, and how their uniqueness is reported: one account
/// per case-folded e-mail and username, as in the SQLite store.
enum UserRows {
    /// The columns `user(from:)` and `profile(from:)` read.
    static let columns = "id, username, email, first_name, last_name, age, bio, version, created_at, updated_at"

    /// The case-folded form uniqueness is checked on: Swift's folding, as the SQLite store's, so both backends
    /// agree on which names collide whatever the server's collation.
    static func key(_ text: String) -> String {
        text.lowercased()
    }

    /// The account a row of `columns` holds.
    static func user(from row: PostgresRandomAccessRow) throws -> User {
        User(
            id: try row.column("id"), username: try row.column("username"), email: try row.column("email"),
            createdAt: try row.column("created_at"))
    }

    /// The profile a row of `columns` holds.
    static func profile(from row: PostgresRandomAccessRow) throws -> Profile {
        Profile(
            username: try row.column("username"), email: try row.column("email"),
            firstName: try row.column("first_name"), lastName: try row.column("last_name"),
            age: try row.column("age", as: Int32?.self).map(Int.init), bio: try row.column("bio"),
            version: Int(try row.column("version", as: Int32.self)), updatedAt: try row.column("updated_at"))
    }

    /// Which of `email` and `username` another account than `userID` holds (or, for a username, a deleted
    /// account still reserves), as the `.conflict` fields the SQLite store names.
    static func taken(
        _ connection: PostgresConnection, email: String?, username: String?, besides userID: Int64 = 0
    ) async throws -> [String: String] {
        var taken: [String: String] = [:]
        if let email,
            try await connection.value(
                "SELECT EXISTS(SELECT 1 FROM users WHERE email_key = \(key(email)) AND id <> \(userID))", as: Bool.self)
                == true
        {
            taken["email"] = "Email is already taken"
        }
        if let username {
            let usernameKey = key(username)
            let held = try await connection.value(
                "SELECT EXISTS(SELECT 1 FROM users WHERE username_key = \(usernameKey) AND id <> \(userID))",
                as: Bool.self)
            // Asked second, and only when no account holds the name: an `||` cannot await.
            if held == true {
                taken["username"] = "Username is already taken"
            } else if try await AccountStanding.isReserved(connection, usernameKey: usernameKey) {
                taken["username"] = "Username is already taken"
            }
        }
        return taken
    }

    /// The error for `taken` fields; nil when there are none.
    static func conflict(_ taken: [String: String]) -> TwitterError? {
        guard !taken.isEmpty else { return nil }
        return TwitterError(.conflict, taken.values.sorted().joined(separator: "; "), fields: taken)
    }

    /// The same `.conflict` for a unique index hit by a concurrent write after the check passed; nil for any
    /// other error.
    static func conflict(from error: any Error) -> TwitterError? {
        guard let error = error as? PSQLError, error.serverInfo?[.sqlState] == "23505" else { return nil }
        switch error.serverInfo?[.constraintName] {
        case "users_email_key_key": return conflict(["email": "Email is already taken"])
        case "users_username_key_key": return conflict(["username": "Username is already taken"])
        default: return nil
        }
    }
}
