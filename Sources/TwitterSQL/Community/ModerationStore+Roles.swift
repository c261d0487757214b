import TwitterCore

extension ModerationStore {
    /// The `role` column of the account's row.
    public func role(of userID: Int64) async throws -> AccountRole {
        try await database.read { connection in
            try await connection.value("SELECT role FROM users WHERE id = \(userID)", as: String.self)
                .flatMap(AccountRole.init(rawValue:)) ?? .user
        }
    }

    /// Writes the column only when it changes.
    public func setRole(_ role: AccountRole, of userID: Int64) async throws -> Bool {
        try await database.transaction { connection in
            try await connection.value(
                """
                UPDATE users SET role = \(role.rawValue) WHERE id = \(userID) AND role <> \(role.rawValue) RETURNING id
                """, as: Int64.self) != nil
        }
    }

    /// Reads the accounts with the role, suspended or not.
    public func accounts(withRole role: AccountRole) async throws -> [Int64] {
        try await database.read { connection in
            try await connection.values(
                "SELECT id FROM users WHERE role = \(role.rawValue) ORDER BY id", as: Int64.self)
        }
    }
}
