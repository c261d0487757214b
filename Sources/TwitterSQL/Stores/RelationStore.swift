import TwitterCore
import TwitterRules

/// Mutes and blocks; every change is an ordered write, reported once committed, so the read
/// model's hidden accounts follow them in commit order.
public struct RelationStore: RelationStoring {
    let database: ObservedDatabase

    /// Creates the store; committed changes are reported to `observer`.
    public init(database: any SQLDatabase, observer: any CommitObserving) {
        self.database = ObservedDatabase(database: database, observer: observer)
    }

    /// Muting again changes nothing and reports nothing.
    public func mute(_ targetID: Int64, by userID: Int64) async throws -> Bool {
        try await database.orderedWrite { connection in
            let muted = try await Relationship.mutes.insert(connection, of: userID, to: targetID)
            return RelationRule.outcome(.mute, by: userID, of: targetID, changed: muted)
        }
    }

    /// Unmuting whom one does not mute changes nothing and reports nothing.
    public func unmute(_ targetID: Int64, by userID: Int64) async throws -> Bool {
        try await database.orderedWrite { connection in
            let unmuted = try await Relationship.mutes.delete(connection, of: userID, to: targetID)
            return RelationRule.outcome(.unmute, by: userID, of: targetID, changed: unmuted)
        }
    }

    /// Inserts the block and ends the follows both ways, in one transaction: their unfollow events come first,
    /// so every home stream stops showing the other side before the block is known.
    public func block(_ targetID: Int64, by userID: Int64) async throws -> Bool {
        try await database.orderedWrite { connection in
            guard try await Relationship.blocks.insert(connection, of: userID, to: targetID) else {
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
        try await database.orderedWrite { connection in
            let unblocked = try await Relationship.blocks.delete(connection, of: userID, to: targetID)
            return RelationRule.outcome(.unblock, by: userID, of: targetID, changed: unblocked)
        }
    }

    /// Walks the (muter_id, id) index back from the cursor.
    public func muted(by userID: Int64, page: PageRequest) async throws -> UserPage {
        try await UserPageQuery.read(.mutes, from: userID, page: page, on: database)
    }

    /// Walks the (blocker_id, id) index back from the cursor.
    public func blocked(by userID: Int64, page: PageRequest) async throws -> UserPage {
        try await UserPageQuery.read(.blocks, from: userID, page: page, on: database)
    }

    /// The three sets in one query, each row tagged with the set it belongs to.
    public func hiddenAccounts(of userID: Int64) async throws -> HiddenAccounts {
        try await database.read { connection in try await Self.hiddenAccounts(connection, of: userID) }
    }

    /// The three sets, inside the caller's transaction.
    static func hiddenAccounts(_ connection: any SQLConnection, of userID: Int64) async throws -> HiddenAccounts {
        try await TaggedIDs.read(
            connection, SQLQuery(Hidden.self, userID), into: HiddenAccounts(),
            sets: ["muted": \.muted, "blocking": \.blocking, "blockedBy": \.blockedBy])
    }

    enum Hidden: SQLText {
        static let sql: SQLQuery = """
            SELECT 'muted' AS kind, muted_id AS id FROM mutes WHERE muter_id = \(param: 1)
            UNION ALL SELECT 'blocking', blocked_id FROM blocks WHERE blocker_id = \(param: 1)
            UNION ALL SELECT 'blockedBy', blocker_id FROM blocks WHERE blocked_id = \(param: 1)
            """
    }
}
