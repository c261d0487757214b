import Foundation
import GRDB
import TwitterCore
import TwitterSQL

/// Notifications in SQLite. They are written by the other stores in their own transactions (`Interactions`);
/// this store reads them and keeps each recipient's read marker.
public struct NotificationStore: NotificationStoring {
    let database: AppDatabase

    /// Creates the store.
    public init(database: AppDatabase) {
        self.database = database
    }

    /// Walks the (recipientId, id) index newest first.
    public func notifications(of recipientID: Int64, _ query: NotificationQuery, hiding: Set<Int64>) async throws
        -> [ActivityNotification]
    {
        try await database.writer.read { db in
            var conditions = ["notifications.recipient_id = ?"]
            var arguments: StatementArguments = [recipientID]
            if let sinceID = query.sinceID {
                conditions.append("notifications.id > ?")
                arguments += [sinceID]
            }
            if let maxID = query.maxID {
                conditions.append("notifications.id < ?")
                arguments += [maxID]
            }
            if let types = query.types {
                conditions.append(
                    "notifications.type IN (\(types.map { "'\($0.rawValue)'" }.sorted().joined(separator: ",")))")
            }
            arguments += [query.limit]
            return try Self.fetch(
                db, recipientID, conditions, hiding: hiding, order: "DESC", arguments: arguments)
        }
    }

    /// Oldest first after `sinceID`.
    public func notifications(of recipientID: Int64, after sinceID: Int64, limit: Int, hiding: Set<Int64>)
        async throws -> [ActivityNotification]
    {
        try await database.writer.read { db in
            try Self.fetch(
                db, recipientID, ["notifications.recipient_id = ?", "notifications.id > ?"], hiding: hiding,
                order: "ASC", arguments: [recipientID, sinceID, limit])
        }
    }

    /// Moves the marker forward only, then counts.
    public func markRead(of recipientID: Int64, upTo upToID: Int64, hiding: Set<Int64>) async throws -> Int {
        try await database.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO notification_markers (user_id, read_up_to) VALUES (?1, ?2)
                    ON CONFLICT (user_id) DO UPDATE SET read_up_to = MAX(read_up_to, ?2)
                    """,
                // Never past the newest notification there is: a marker ahead of it would mark future ones read.
                arguments: [recipientID, min(upToID, try Self.newest(db, recipientID))])
            return try Self.unread(db, recipientID, hiding: hiding)
        }
    }

    /// Counts past the marker.
    public func unreadCount(of recipientID: Int64, hiding: Set<Int64>) async throws -> Int {
        try await database.writer.read { db in try Self.unread(db, recipientID, hiding: hiding) }
    }

    private static func newest(_ db: Database, _ recipientID: Int64) throws -> Int64 {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT MAX(id) FROM notifications WHERE recipient_id = ?"),
            arguments: [recipientID])
            ?? 0
    }

    private static func marker(_ db: Database, _ recipientID: Int64) throws -> Int64 {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT read_up_to FROM notification_markers WHERE user_id = ?"),
            arguments: [recipientID]) ?? 0
    }

    /// Leaves out the notifications from suspended accounts, and those from `hiding` of the kinds hidden with their
    /// actor (`Kind.isHiddenWithItsActor`).
    private static func hidingClause(_ hiding: Set<Int64>) -> String {
        let kept = ActivityNotification.Kind.allCases.filter { !$0.isHiddenWithItsActor }
        let hidden = hiding.sorted().map(String.init).joined(separator: ",")
        return " AND \(AccountStanding.notSuspended("notifications.actor_id"))"
            + (hiding.isEmpty
                ? ""
                : " AND (notifications.type IN (\(kept.map { "'\($0.rawValue)'" }.joined(separator: ",")))"
                    + " OR notifications.actor_id NOT IN (\(hidden)))")
    }

    private static func unread(_ db: Database, _ recipientID: Int64, hiding: Set<Int64>) throws -> Int {
        try Int.fetchOne(
            db,
            sql: "SELECT COUNT(*) FROM notifications WHERE recipient_id = ? AND id > ?" + hidingClause(hiding),
            arguments: [recipientID, try marker(db, recipientID)]) ?? 0
    }

    /// The notifications `conditions` select, with their actors and tweets: one query for the notifications and
    /// one for all their tweets.
    private static func fetch(
        _ db: Database, _ recipientID: Int64, _ conditions: [String], hiding: Set<Int64>, order: String,
        arguments: StatementArguments
    ) throws -> [ActivityNotification] {
        let sql = """
            SELECT notifications.id, notifications.type, notifications.created_at, notifications.tweet_id, users.id AS actor_id,
                users.username, notifications.report_id
            FROM notifications JOIN users ON users.id = notifications.actor_id
            WHERE \(conditions.joined(separator: " AND "))\(hidingClause(hiding))
            ORDER BY notifications.id \(order) LIMIT ?
            """
        let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
        let tweetIDs = rows.compactMap { $0["tweet_id"] as Int64? }
        var tweets: [Int64: Tweet] = [:]
        if !tweetIDs.isEmpty {
            for tweet in try TweetRows.fetchAll(
                db, "WHERE tweets.id IN (\(tweetIDs.map(String.init).joined(separator: ",")))", [], cached: false)
            {
                tweets[tweet.id] = tweet
            }
        }
        let readUpTo = try marker(db, recipientID)
        return rows.compactMap { row in
            guard let type = ActivityNotification.Kind(rawValue: row["type"]) else { return nil }
            let id: Int64 = row["id"]
            return ActivityNotification(
                id: id, type: type, createdAt: row["created_at"],
                from: .init(id: row["actor_id"], username: row["username"]),
                tweet: (row["tweet_id"] as Int64?).flatMap { tweets[$0] }, read: id <= readUpTo,
                reportID: row["report_id"])
        }
    }
}
