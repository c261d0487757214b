import Foundation
import GRDB
import TwitterCore
import TwitterSQL
import TwitterRules

/// The follow graph in SQLite; follows and unfollows are reported once committed.
public struct FollowStore: FollowStoring {
    let database: AppDatabase
    private let reporter: CommitReporter

    /// Creates the store; committed follows and unfollows are reported to `observer`.
    public init(database: AppDatabase, observer: any TweetCommitObserving) {
        self.database = database
        reporter = CommitReporter(database: database, observer: observer)
    }

    /// Inserts the follow unless it exists.
    public func follow(_ followeeID: Int64, by followerID: Int64) async throws -> Bool {
        try await reporter.write { db in
            if let refusal = RelationRule.followRefusal(
                followee: followeeID, follower: followerID,
                blocker: try Interactions.blocker(db, between: followerID, and: followeeID))
            {
                throw refusal
            }
            let now = Date().storagePrecision
            try db.execute(
                sql: "INSERT OR IGNORE INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)",
                arguments: [followerID, followeeID, now])
            guard db.changesCount > 0 else { return (false, []) }
            let notification = try RelationRule.followNotification(followee: followeeID, follower: followerID).map {
                try Interactions.insert(db, $0, by: try Interactions.account(db, followerID), tweet: nil, at: now)
            }
            return (
                true,
                RelationRule.followEvents(follower: followerID, followee: followeeID, notification: notification)
            )
        }
    }

    /// Deletes the follow if it exists.
    public func unfollow(_ followeeID: Int64, by followerID: Int64) async throws -> Bool {
        try await reporter.write { db in
            let ended = try Self.endFollow(db, followeeID, by: followerID)
            return (ended != nil, ended.map { [$0] } ?? [])
        }
    }

    /// Deletes a follow and withdraws its notification; its event, or nil when there was no follow.
    static func endFollow(_ db: Database, _ followeeID: Int64, by followerID: Int64) throws -> TweetEvent? {
        try db.execute(
            sql: "DELETE FROM follows WHERE follower_id = ? AND followee_id = ?", arguments: [followerID, followeeID])
        guard db.changesCount > 0 else { return nil }
        try Interactions.withdraw(db, .follow, by: followerID, to: followeeID)
        return .unfollowed(followerID: followerID, followeeID: followeeID)
    }

    /// Walks the (followeeId, id) index back from the cursor.
    public func followers(of userID: Int64, page: PageRequest) async throws -> UserPage {
        try await database.writer.read { db in
            try UserPageQuery.fetch(
                db, relationshipTable: "follows", ownerColumn: "followee_id", personColumn: "follower_id",
                owner: userID,
                page: page)
        }
    }

    /// Walks the (followerId, id) index back from the cursor.
    public func following(of userID: Int64, page: PageRequest) async throws -> UserPage {
        try await database.writer.read { db in
            try UserPageQuery.fetch(
                db, relationshipTable: "follows", ownerColumn: "follower_id", personColumn: "followee_id",
                owner: userID,
                page: page)
        }
    }

    /// Every followee id.
    public func followeeIDs(of userID: Int64) async throws -> Set<Int64> {
        try await database.writer.read { db in
            Set(
                try Int64.fetchAll(
                    db, sql: "SELECT followee_id FROM follows WHERE follower_id = ?", arguments: [userID]))
        }
    }

    /// The account with its counts and its relationship to the viewer, in one read.
    public func overview(of username: String, viewerID: Int64) async throws -> UserOverview? {
        try await database.writer.read { db in
            let sql = """
                SELECT users.id, users.username, users.first_name, users.last_name, users.bio, users.created_at,
                    (SELECT COUNT(*) FROM follows WHERE followee_id = users.id
                        AND \(AccountStanding.notSuspended("follower_id"))) AS followersCount,
                    (SELECT COUNT(*) FROM follows WHERE follower_id = users.id
                        AND \(AccountStanding.notSuspended("followee_id"))) AS followingCount,
                    (SELECT COUNT(*) FROM tweets LEFT JOIN tweets AS original ON original.id = tweets.repost_of_id
                        WHERE tweets.author_id = users.id
                            AND (original.id IS NULL OR \(AccountStanding.notSuspended("original.author_id"))))
                        AS tweetsCount,
                    EXISTS(SELECT 1 FROM follows WHERE follower_id = ?1 AND followee_id = users.id) AS followedByMe,
                    EXISTS(SELECT 1 FROM follows WHERE follower_id = users.id AND followee_id = ?1) AS followsMe,
                    EXISTS(SELECT 1 FROM mutes WHERE muter_id = ?1 AND muted_id = users.id) AS mutedByMe,
                    EXISTS(SELECT 1 FROM blocks WHERE blocker_id = ?1 AND blocked_id = users.id) AS blockedByMe
                FROM users WHERE username_key = ?2 AND suspended_at IS NULL
                """
            return try Row.fetchOne(db, sql: sql, arguments: [viewerID, UserRows.key(username)]).map { row in
                UserOverview(
                    username: row["username"], firstName: row["first_name"], lastName: row["last_name"],
                    bio: row["bio"], createdAt: row["created_at"], followersCount: row["followersCount"],
                    followingCount: row["followingCount"], tweetsCount: row["tweetsCount"],
                    followedByMe: row["followedByMe"], followsMe: row["followsMe"], mutedByMe: row["mutedByMe"],
                    blockedByMe: row["blockedByMe"])
            }
        }
    }
}
