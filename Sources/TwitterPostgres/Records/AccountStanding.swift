import Foundation
import PostgresNIO

/// The one home of what reads leave out for an account's standing (as in the SQLite store): a suspended
/// account's tweets, reposts, likes, follows and notifications are skipped by every read through these
/// fragments, so suspending writes two columns and the counters (`Contributions`), never the content.
enum AccountStanding {
    /// The ids of suspended accounts, read from the partial index `users_suspended`, which holds only them.
    static let suspendedIDs = "SELECT id FROM users WHERE suspended_at IS NOT NULL"

    /// The condition that `column` is no suspended account's id.
    static func notSuspended(_ column: String) -> String {
        "\(column) NOT IN (\(suspendedIDs))"
    }

    /// The condition that `column` is a suspended account's id.
    static func suspended(_ column: String) -> String {
        "\(column) IN (\(suspendedIDs))"
    }

    /// Whether `usernameKey` belongs to a deleted account whose name is still reserved at `now`.
    static func isReserved(_ connection: PostgresConnection, usernameKey: String, at now: Date = Date()) async throws
        -> Bool
    {
        try await connection.value(
            "SELECT EXISTS(SELECT 1 FROM reserved_usernames WHERE username_key = \(usernameKey) AND until > \(now))",
            as: Bool.self) ?? false
    }
}
