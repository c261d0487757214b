import Foundation
import TwitterCore
import TwitterRules

/// Mutes and blocks; every change is an ordered write, reported once committed, so the read
/// model's hidden accounts follow them in commit order.
public struct RelationStore: RelationStoring {
    let database: any SQLDatabase
    let observer: any CommitObserving

    /// Creates the store; committed changes are reported to `observer`.
    public init(database: any SQLDatabase, observer: any CommitObserving) {
        self.database = database
        self.observer = observer
    }

    /// Muting again changes nothing and reports nothing.
    public func mute(_ targetID: Int64, by userID: Int64) async throws -> Bool {
        try await database.orderedWrite(reportingTo: observer) { connection in
            RelationRule.outcome(
                .mute, by: userID, of: targetID,
                changed: try await Self.insert(connection, into: "mutes", "muter_id", "muted_id", userID, targetID))
        }
    }

    /// Unmuting whom one does not mute changes nothing and reports nothing.
    public func unmute(_ targetID: Int64, by userID: Int64) async throws -> Bool {
        try await database.orderedWrite(reportingTo: observer) { connection in
            let deleted = try await connection.value(
                "DELETE FROM mutes WHERE muter_id = \(userID) AND muted_id = \(targetID) RETURNING id", as: Int64.self)
            return RelationRule.outcome(.unmute, by: userID, of: targetID, changed: deleted != nil)
        }
    }

    /// Inserts the block and ends the follows both ways, in one transaction: their unfollow events come first,
    /// so every home stream stops showing the other side before the block is known.
    public func block(_ targetID: Int64, by userID: Int64) async throws -> Bool {
        try await database.orderedWrite(reportingTo: observer) { connection in
            guard try await Self.insert(connection, into: "blocks", "blocker_id", "blocked_id", userID, targetID) else {
                return (false, [])
            }
            var unfollowed: [CommitEvent] = []
            for follow in RelationRule.followsEndedByBlock(blocker: userID, blocked: targetID) {
                if let ended = try await FollowStore.endFollow(connection, follow.followeeID, by: follow.followerID) {
                    unfollowed.append(ended)
                }
            }
            // As Mastodon does: a block ends the memberships between the two in each other's lists.
            let unlisted = try await ListStore.endMemberships(connection, blocker: userID, blocked: targetID)
            return (
                true, RelationRule.blockEvents(blocker: userID, blocked: targetID, unfollowed: unfollowed + unlisted)
            )
        }
    }

    /// The follows the block ended are not restored: each side follows again if it wants to.
    public func unblock(_ targetID: Int64, by userID: Int64) async throws -> Bool {
        try await database.orderedWrite(reportingTo: observer) { connection in
            let deleted = try await connection.value(
                "DELETE FROM blocks WHERE blocker_id = \(userID) AND blocked_id = \(targetID) RETURNING id",
                as: Int64.self)
            return RelationRule.outcome(.unblock, by: userID, of: targetID, changed: deleted != nil)
        }
    }

    /// Walks the (muter_id, id) index back from the cursor.
    public func muted(by userID: Int64, page: PageRequest) async throws -> UserPage {
        try await database.read { connection in
            try await UserPageQuery.fetch(
                connection, relationshipTable: "mutes", ownerColumn: "muter_id", personColumn: "muted_id",
                owner: userID, page: page)
        }
    }

    /// Walks the (blocker_id, id) index back from the cursor.
    public func blocked(by userID: Int64, page: PageRequest) async throws -> UserPage {
        try await database.read { connection in
            try await UserPageQuery.fetch(
                connection, relationshipTable: "blocks", ownerColumn: "blocker_id", personColumn: "blocked_id",
                owner: userID, page: page)
        }
    }

    /// The three sets in one query, each row tagged with the set it belongs to.
    public func hiddenAccounts(of userID: Int64) async throws -> HiddenAccounts {
        try await database.read { connection in try await Self.hiddenAccounts(connection, of: userID) }
    }

    /// The three sets, inside the caller's transaction.
    static func hiddenAccounts(_ connection: any SQLConnection, of userID: Int64) async throws -> HiddenAccounts {
        var hidden = HiddenAccounts()
        for row in try await connection.rows(SQLQuery(Hidden.self, userID)) {
            let id = try row.column("id", as: Int64.self)
            switch try row.column("kind", as: String.self) {
            case "muted": hidden.muted.insert(id)
            case "blocking": hidden.blocking.insert(id)
            default: hidden.blockedBy.insert(id)
            }
        }
        return hidden
    }

    enum Hidden: SQLText {
        static let sql = """
            SELECT 'muted' AS kind, muted_id AS id FROM mutes WHERE muter_id = $1
            UNION ALL SELECT 'blocking', blocked_id FROM blocks WHERE blocker_id = $1
            UNION ALL SELECT 'blockedBy', blocker_id FROM blocks WHERE blocked_id = $1
            """
    }

    /// Inserts the relationship unless it exists; whether it was new. `table` and the columns are this file's
    /// own names.
    static func insert(
        _ connection: any SQLConnection, into table: String, _ ownerColumn: String, _ otherColumn: String,
        _ owner: Int64, _ other: Int64
    ) async throws -> Bool {
        try await connection.value(
            """
            INSERT INTO \(unescaped: table) (\(unescaped: ownerColumn), \(unescaped: otherColumn), created_at)
            VALUES (\(owner), \(other), \(connection.dialect.stored(Date()))) ON CONFLICT DO NOTHING RETURNING id
            """, as: Int64.self) != nil
    }
}
