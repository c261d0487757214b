import Foundation

/// The one home of what reads leave out for an account's standing: a suspended account's tweets, reposts,
/// likes, follows and notifications are skipped by every read through these fragments, so suspending writes two
/// columns and the counters (`Contributions`), never the content.
public enum AccountStanding {
    /// The ids of suspended accounts, for `NOT IN`: read from the partial index that holds only them.
    public static let suspendedIDs = "SELECT id FROM users WHERE suspended_at IS NOT NULL"

    /// The condition that `column` is no suspended account's id.
    public static func notSuspended(_ column: String) -> SQLQuery {
        "\(unescaped: column) NOT IN (\(unescaped: suspendedIDs))"
    }

    /// `notSuspended` as text, for a driver's own statements (SQLite's search through GRDB).
    public static func notSuspendedText(_ column: String) -> String {
        "\(column) NOT IN (\(suspendedIDs))"
    }

    /// The condition that `column` is a suspended account's id.
    public static func suspended(_ column: String) -> SQLQuery {
        "\(unescaped: column) IN (\(unescaped: suspendedIDs))"
    }

    /// Whether `usernameKey` belongs to a deleted account whose name is still reserved at `now`.
    public static func isReserved(_ connection: any SQLConnection, usernameKey: String, at now: Date = Date())
        async throws -> Bool
    {
        try await connection.value(SQLQuery(Reserved.self, usernameKey, now), as: Bool.self) ?? false
    }

    private enum Reserved: SQLText {
        static let sql: SQLQuery =
            "SELECT EXISTS(SELECT 1 FROM reserved_usernames WHERE username_key = \(param: 1) AND until > \(param: 2))"
    }
}
