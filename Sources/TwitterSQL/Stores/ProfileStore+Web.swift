import TwitterCore

extension ProfileStore {
    /// False for an account that keeps itself off the web, and for no account at all.
    public func isWebVisible(userID: Int64) async throws -> Bool {
        try await database.read { connection in
            try await connection.value("SELECT web_visible FROM users WHERE id = \(userID)", as: Bool.self) ?? false
        }
    }

    /// Writes the flag alone: the profile's version is the editable fields', which this is not. An ordered write,
    /// read with the row locked, that reports a change (`AccountEvent.webVisibilityChanged`) and nothing else.
    public func setWebVisible(_ visible: Bool, userID: Int64) async throws {
        try await database.orderedWrite { connection in
            guard
                let stored = try await connection.value(
                    "SELECT web_visible FROM users WHERE id = \(userID)\(lock: .forUpdate)", as: Bool.self),
                stored != visible
            else { return ((), []) }
            try await connection.run("UPDATE users SET web_visible = \(visible) WHERE id = \(userID)")
            return ((), [.account(.webVisibilityChanged(userID: userID, visible: visible))])
        }
    }

    /// Read whole: the accounts off the web are expected to be few. Each daemon keeps the set in its read model
    /// (`FeedReadModel.accountsOffWeb`), so this is read once, not for each web page.
    public func webHiddenUsers() async throws -> Set<Int64> {
        try await database.read { connection in
            Set(try await connection.values("SELECT id FROM users WHERE NOT web_visible", as: Int64.self))
        }
    }
}
