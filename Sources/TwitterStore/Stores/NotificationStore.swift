import Foundation
import GRDB
import TwitterCore

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
            var conditions = ["notification.recipientId = ?"]
            var arguments: StatementArguments = [recipientID]
            if let sinceID = query.sinceID {
                conditions.append("notification.id > ?")
                arguments += [sinceID]
            }
            if let maxID = query.maxID {
                conditions.append("notification.id < ?")
                arguments += [maxID]
            }
            if let types = query.types {
                conditions.append(
                    "notification.type IN (\(types.map { "'\($0.rawValue)'" }.sorted().joined(separator: ",")))")
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
                db, recipientID, ["notification.recipientId = ?", "notification.id > ?"], hiding: hiding,
                order: "ASC", arguments: [recipientID, sinceID, limit])
        }
    }

    /// Moves the marker forward only, then counts.
    public func markRead(of recipientID: Int64, upTo upToID: Int64, hiding: Set<Int64>) async throws -> Int {
        try await database.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO notificationMarker (userId, readUpTo) VALUES (?1, ?2)
                    ON CONFLICT (userId) DO UPDATE SET readUpTo = MAX(readUpTo, ?2)
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
            db.cachedStatement(sql: "SELECT MAX(id) FROM notification WHERE recipientId = ?"), arguments: [recipientID])
            ?? 0
    }

    private static func marker(_ db: Database, _ recipientID: Int64) throws -> Int64 {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT readUpTo FROM notificationMarker WHERE userId = ?"),
            arguments: [recipientID]) ?? 0
    }

    /// Leaves out the notifications from suspended accounts, and those from `hiding` of the kinds hidden with their
    /// actor (`Kind.isHiddenWithItsActor`).
    private static func hidingClause(_ hiding: Set<Int64>) -> String {
        let kept = ActivityNotification.Kind.allCases.filter { !$0.isHiddenWithItsActor }
        let hidden = hiding.sorted().map(String.init).joined(separator: ",")
        return " AND \(AccountStanding.notSuspended("notification.actorId"))"
            + (hiding.isEmpty
                ? ""
                : " AND (notification.type IN (\(kept.map { "'\($0.rawValue)'" }.joined(separator: ",")))"
                    + " OR notification.actorId NOT IN (\(hidden)))")
    }

    private static func unread(_ db: Database, _ recipientID: Int64, hiding: Set<Int64>) throws -> Int {
        try Int.fetchOne(
            db,
            sql: "SELECT COUNT(*) FROM notification WHERE recipientId = ? AND id > ?" + hidingClause(hiding),
            arguments: [recipientID, try marker(db, recipientID)]) ?? 0
    }

    /// The notifications `conditions` select, with their actors and tweets: one query for the notifications and
    /// one for all their tweets.
    private static func fetch(
        _ db: Database, _ recipientID: Int64, _ conditions: [String], hiding: Set<Int64>, order: String,
        arguments: StatementArguments
    ) throws -> [ActivityNotification] {
        let sql = """
            SELECT notification.id, notification.type, notification.createdAt, notification.tweetId, user.id AS actorId,
                user.username, notification.reportId
            FROM notification JOIN user ON user.id = notification.actorId
            WHERE \(conditions.joined(separator: " AND "))\(hidingClause(hiding))
            ORDER BY notification.id \(order) LIMIT ?
            """
        let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
        let tweetIDs = rows.compactMap { $0["tweetId"] as Int64? }
        var tweets: [Int64: Tweet] = [:]
        if !tweetIDs.isEmpty {
            for tweet in try TweetRow.fetchAll(
                db, "WHERE tweet.id IN (\(tweetIDs.map(String.init).joined(separator: ",")))", [], cached: false)
            {
                tweets[tweet.id] = tweet
            }
        }
        let readUpTo = try marker(db, recipientID)
        return rows.compactMap { row in
            guard let type = ActivityNotification.Kind(rawValue: row["type"]) else { return nil }
            let id: Int64 = row["id"]
            return ActivityNotification(
                id: id, type: type, createdAt: row["createdAt"],
                from: .init(id: row["actorId"], username: row["username"]),
                tweet: (row["tweetId"] as Int64?).flatMap { tweets[$0] }, read: id <= readUpTo,
                reportID: row["reportId"])
        }
    }
}
