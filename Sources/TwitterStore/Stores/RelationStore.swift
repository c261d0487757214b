import Foundation
import GRDB
import TwitterCore
import TwitterRules

/// Mutes and blocks in SQLite; every change is reported once committed.
public struct RelationStore: RelationStoring {
    let database: AppDatabase
    private let reporter: CommitReporter

    /// Creates the store; committed changes are reported to `observer`.
    public init(database: AppDatabase, observer: any TweetCommitObserving) {
        self.database = database
        reporter = CommitReporter(database: database, observer: observer)
    }

    /// Inserts the mute unless it exists.
    public func mute(_ targetID: Int64, by userID: Int64) async throws -> Bool {
        try await reporter.write { db in
            RelationRule.outcome(
                .mute, by: userID, of: targetID,
                changed: try Self.insert(db, "mutes", "muter_id", "muted_id", userID, targetID))
        }
    }

    /// Deletes the mute if it exists.
    public func unmute(_ targetID: Int64, by userID: Int64) async throws -> Bool {
        try await reporter.write { db in
            try db.execute(sql: "DELETE FROM mutes WHERE muter_id = ? AND muted_id = ?", arguments: [userID, targetID])
            return RelationRule.outcome(.unmute, by: userID, of: targetID, changed: db.changesCount > 0)
        }
    }

    /// Inserts the block and ends the follows both ways, in one transaction: their unfollow events come first,
    /// so every home stream stops showing the other side before the block is known.
    public func block(_ targetID: Int64, by userID: Int64) async throws -> Bool {
        try await reporter.write { db in
            guard try Self.insert(db, "blocks", "blocker_id", "blocked_id", userID, targetID) else {
                return (false, [])
            }
            let unfollowed = try RelationRule.followsEndedByBlock(blocker: userID, blocked: targetID).compactMap {
                try FollowStore.endFollow(db, $0.followeeID, by: $0.followerID)
            }
            // As Mastodon does: a block ends the memberships between the two in each other's lists.
            let unlisted = try ListStore.endMemberships(db, blocker: userID, blocked: targetID)
            return (
                true, RelationRule.blockEvents(blocker: userID, blocked: targetID, unfollowed: unfollowed + unlisted)
            )
        }
    }

    /// Deletes the block if it exists; the follows it ended are not restored.
    public func unblock(_ targetID: Int64, by userID: Int64) async throws -> Bool {
        try await reporter.write { db in
            try db.execute(
                sql: "DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?", arguments: [userID, targetID])
            return RelationRule.outcome(.unblock, by: userID, of: targetID, changed: db.changesCount > 0)
        }
    }

    /// Walks the (muterId, id) index back from the cursor.
    public func muted(by userID: Int64, page: PageRequest) async throws -> UserPage {
        try await database.writer.read { db in
            try UserPageQuery.fetch(
                db, relationshipTable: "mutes", ownerColumn: "muter_id", personColumn: "muted_id", owner: userID,
                page: page)
        }
    }

    /// Walks the (blockerId, id) index back from the cursor.
    public func blocked(by userID: Int64, page: PageRequest) async throws -> UserPage {
        try await database.writer.read { db in
            try UserPageQuery.fetch(
                db, relationshipTable: "blocks", ownerColumn: "blocker_id", personColumn: "blocked_id", owner: userID,
                page: page)
        }
    }

    /// The three sets, in one read.
    public func hiddenAccounts(of userID: Int64) async throws -> HiddenAccounts {
        try await database.writer.read { db in try Self.hiddenAccounts(db, of: userID) }
    }

    /// The three sets, inside the caller's transaction.
    static func hiddenAccounts(_ db: Database, of userID: Int64) throws -> HiddenAccounts {
        func ids(_ sql: String) throws -> Set<Int64> {
            Set(try Int64.fetchAll(db.cachedStatement(sql: sql), arguments: [userID]))
        }
        return HiddenAccounts(
            muted: try ids("SELECT muted_id FROM mutes WHERE muter_id = ?"),
            blocking: try ids("SELECT blocked_id FROM blocks WHERE blocker_id = ?"),
            blockedBy: try ids("SELECT blocker_id FROM blocks WHERE blocked_id = ?"))
    }

    private static func insert(
        _ db: Database, _ table: String, _ ownerColumn: String, _ otherColumn: String, _ owner: Int64, _ other: Int64
    ) throws -> Bool {
        try db.execute(
            sql: "INSERT OR IGNORE INTO \(table) (\(ownerColumn), \(otherColumn), created_at) VALUES (?, ?, ?)",
            arguments: [owner, other, Date().storagePrecision])
        return db.changesCount > 0
    }
}
