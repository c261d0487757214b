import TwitterCore

extension ModerationStore {
    /// The `role` column of the account's row.
    public func role(of userID: Int64) async throws -> AccountRole {
        try await database.read { connection in
            try await connection.value("SELECT role FROM users WHERE id = \(userID)", as: String.self)
                .flatMap(AccountRole.init(rawValue:)) ?? .user
        }
    }

    /// Writes the column only when it changes, then with the entry that ends the account's live connections on
    /// the other daemons (their next login has the new role), in one transaction.
    public func setRole(_ role: AccountRole, of userID: Int64) async throws -> Bool {
        try await database.orderedWrite { connection in
            let changed =
                try await connection.value(
                    """
                    UPDATE users SET role = \(role.rawValue) WHERE id = \(userID) AND role <> \(role.rawValue) RETURNING id
                    """, as: Int64.self) != nil
            let told: [CommitEvent] =
                changed ? [.account(.revoked(.account(userID: userID, reason: .roleChanged)))] : []
            return (changed, told)
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
