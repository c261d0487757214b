import TwitterCore

/// How `users` rows are read by the user and profile stores, and how their uniqueness is reported: one account
/// per case-folded e-mail and username.
public enum UserRows {
    /// The columns `user(from:)` and `profile(from:)` read.
    public static let columns =
        "id, username, email, first_name, last_name, age, bio, version, created_at, updated_at, web_visible"

    /// The case-folded form uniqueness is checked on: Swift's folding, so both databases agree on which names
    /// collide whatever their collation.
    public static func key(_ text: String) -> String {
        text.lowercased()
    }

    /// The account a row of `columns` holds.
    public static func user(from row: SQLRow) throws -> User {
        User(
            id: try row.column("id"), username: try row.column("username"), email: try row.column("email"),
            createdAt: try row.column("created_at"))
    }

    /// The profile a row of `columns` holds.
    public static func profile(from row: SQLRow) throws -> Profile {
        Profile(
            username: try row.column("username"), email: try row.column("email"),
            firstName: try row.column("first_name"), lastName: try row.column("last_name"),
            age: try row.column("age"), bio: try row.column("bio"), version: try row.column("version"),
            updatedAt: try row.column("updated_at"), webVisible: try row.column("web_visible"))
    }

    /// The row of `columns` of the account named `username`; nil for a suspended one, which others see as gone.
    static func shown(_ connection: any SQLConnection, username: String) async throws -> SQLRow? {
        try await connection.firstRow(SQLQuery(ShownByName.self, key(username)))
    }

    /// `shown`'s text: every profile, lookup and page by name reads it, so it is compiled once a connection.
    private enum ShownByName: SQLText {
        static let sql: SQLQuery =
            "SELECT \(unescaped: columns) FROM users WHERE username_key = \(param: 1) AND suspended_at IS NULL"
    }

    /// Which of `email` and `username` another account than `userID` holds (or, for a username, a deleted
    /// account still reserves), as `.conflict` fields.
    static func taken(
        _ connection: any SQLConnection, email: String?, username: String?, besides userID: Int64 = 0
    ) async throws -> [String: String] {
        var taken: [String: String] = [:]
        if let email, try await connection.value(SQLQuery(EmailHeld.self, key(email), userID), as: Bool.self) == true {
            taken["email"] = "Email is already taken"
        }
        if let username {
            let usernameKey = key(username)
            // Asked second, and only when no account holds the name: an `||` cannot await.
            if try await connection.value(SQLQuery(UsernameHeld.self, usernameKey, userID), as: Bool.self) == true {
                taken["username"] = "Username is already taken"
            } else if try await AccountStanding.isReserved(connection, usernameKey: usernameKey) {
                taken["username"] = "Username is already taken"
            }
        }
        return taken
    }

    private enum EmailHeld: SQLText {
        static let sql: SQLQuery =
            "SELECT EXISTS(SELECT 1 FROM users WHERE email_key = \(param: 1) AND id <> \(param: 2))"
    }

    private enum UsernameHeld: SQLText {
        static let sql: SQLQuery =
            "SELECT EXISTS(SELECT 1 FROM users WHERE username_key = \(param: 1) AND id <> \(param: 2))"
    }

    /// The error for `taken` fields; nil when there are none.
    static func conflict(_ taken: [String: String]) -> TwitterError? {
        guard !taken.isEmpty else { return nil }
        return TwitterError(.conflict, taken.values.sorted().joined(separator: "; "), fields: taken)
    }

    /// The same `.conflict` for a unique index hit by a concurrent write after the check passed (PostgreSQL's
    /// concurrent transactions; SQLite's one writer cannot); nil for any other error.
    static func conflict(from error: any Error, in database: any SQLDatabase) -> TwitterError? {
        guard let index = database.uniqueViolation(in: error) else { return nil }
        if index.contains("email_key") { return conflict(["email": "Email is already taken"]) }
        if index.contains("username_key") { return conflict(["username": "Username is already taken"]) }
        return nil
    }
}
