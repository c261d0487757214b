import GRDB
import TwitterCore

extension ModerationStore {
    /// The `role` column of the account's row.
    public func role(of userID: Int64) async throws -> AccountRole {
        try await database.writer.read { db in
            try String.fetchOne(db, sql: "SELECT role FROM users WHERE id = ?", arguments: [userID])
                .flatMap(AccountRole.init(rawValue:)) ?? .user
        }
    }

    /// Writes the column only when it changes.
    public func setRole(_ role: AccountRole, of userID: Int64) async throws -> Bool {
        try await database.writer.write { db in
            try db.execute(
                sql: "UPDATE users SET role = ? WHERE id = ? AND role <> ?",
                arguments: [role.rawValue, userID, role.rawValue]
            )
            return db.changesCount > 0
        }
    }

    /// Reads the accounts with the role, suspended or not.
    public func accounts(withRole role: AccountRole) async throws -> [Int64] {
        try await database.writer.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM users WHERE role = ? ORDER BY id", arguments: [role.rawValue])
        }
    }
}
