/// Who blocks whom, as the stores written once ask it.
public enum Blocks {
    /// Who blocks whom between two accounts, if either does.
    public static func blocker(_ connection: any SQLConnection, between one: Int64, and other: Int64) async throws
        -> Int64?
    {
        try await connection.value(SQLQuery(Blocker.self, one, other), as: Int64.self)
    }

    private enum Blocker: SQLText {
        static let sql: SQLQuery = """
            SELECT blocker_id FROM blocks
            WHERE (blocker_id = \(param: 1) AND blocked_id = \(param: 2)) OR (blocker_id = \(param: 2) AND blocked_id = \(param: 1))
            LIMIT 1
            """
    }
}
