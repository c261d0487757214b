import Foundation
import GRDB

/// The one home of what reads leave out for an account's standing: a suspended account's tweets, reposts,
/// likes, follows and notifications are skipped by every read through these fragments, so suspending writes two
/// columns and the counters (`Contributions`), never the content.
enum AccountStanding {
    /// The ids of suspended accounts, for `NOT IN`: read from the partial index `user_suspended`, which holds
    /// only them.
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
    static func isReserved(_ db: Database, usernameKey: String, at now: Date = Date()) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(
                sql: "SELECT EXISTS(SELECT 1 FROM reserved_usernames WHERE username_key = ? AND until > ?)"),
            arguments: [usernameKey, now]) ?? false
    }
}
