import Foundation
import TwitterCore

// @MemberwiseInit
/// Notifications. They are written by the other stores in their own ordered writes
/// (`NotificationRows`); this store reads them and keeps each recipient's read marker.
public struct NotificationStore: NotificationStoring {
    let database: any SQLDatabase

    /// Walks the (recipient_id, id) index newest first.
    public func notifications(of recipientID: Int64, _ query: NotificationQuery, hiding: Set<Int64>) async throws
        -> [ActivityNotification]
    {
        var conditions: [SQLQuery] = ["notifications.recipient_id = \(recipientID)"]
        if let sinceID = query.sinceID { conditions.append("notifications.id > \(sinceID)") }
        if let maxID = query.maxID { conditions.append("notifications.id < \(maxID)") }
        if let types = query.types { conditions.append("notifications.type \(isIn: types.map(\.rawValue))") }
        return try await fetch(recipientID, conditions, hiding: hiding, order: "DESC", limit: query.limit)
    }

    /// Oldest first after `sinceID`, for a subscription's catch-up.
    public func notifications(of recipientID: Int64, after sinceID: Int64, limit: Int, hiding: Set<Int64>) async throws
        -> [ActivityNotification]
    {
        let conditions: [SQLQuery] = ["notifications.recipient_id = \(recipientID)", "notifications.id > \(sinceID)"]
        return try await fetch(recipientID, conditions, hiding: hiding, order: "ASC", limit: limit)
    }

    /// Moves the marker forward only, never past the newest notification there is (a marker ahead of it would
    /// mark future ones read), then counts, in one transaction.
    public func markRead(of recipientID: Int64, upTo upToID: Int64, hiding: Set<Int64>) async throws -> Int {
        let unread = Self.unreadQuery(recipientID, hiding: hiding)
        return try await database.transaction { connection in
            try await connection.run(
                """
                INSERT INTO notification_markers (user_id, read_up_to)
                VALUES (\(recipientID), \(function: .least)(\(upToID),
                    COALESCE((SELECT max(id) FROM notifications WHERE recipient_id = \(recipientID)), 0)))
                ON CONFLICT (user_id) DO UPDATE
                    SET read_up_to = \(function: .greatest)(notification_markers.read_up_to, excluded.read_up_to)
                """)
            return try await connection.value(unread, as: Int.self) ?? 0
        }
    }

    /// Counts past the marker, in one query.
    public func unreadCount(of recipientID: Int64, hiding: Set<Int64>) async throws -> Int {
        let unread = Self.unreadQuery(recipientID, hiding: hiding)
        return try await database.read { connection in try await connection.value(unread, as: Int.self) ?? 0 }
    }

    /// Only the recipient's own: another account's id removes nothing and says so.
    public func dismiss(_ id: Int64, of recipientID: Int64) async throws -> Bool {
        try await database.transaction { connection in
            try await connection.value(
                "DELETE FROM notifications WHERE id = \(id) AND recipient_id = \(recipientID) RETURNING id",
                as: Int64.self) != nil
        }
    }

    /// The read marker stays where it is: notifications made later are unread as ever.
    public func clear(of recipientID: Int64) async throws {
        try await database.transaction { connection in
            try await connection.run("DELETE FROM notifications WHERE recipient_id = \(recipientID)")
        }
    }

    /// The marker of `recipient`, 0 before the first read.
    static func marker(_ recipient: Int64) -> SQLQuery {
        "COALESCE((SELECT read_up_to FROM notification_markers WHERE user_id = \(recipient)), 0)"
    }

    /// The count of `recipientID`'s notifications past the marker.
    static func unreadQuery(_ recipientID: Int64, hiding: Set<Int64>) -> SQLQuery {
        "SELECT count(*) FROM notifications WHERE recipient_id = \(recipientID) AND id > \(marker(recipientID))\(hidingClause(hiding))"
    }

    /// Leaves out the notifications from suspended accounts, and those from `hiding` of the kinds hidden with
    /// their actor (`Kind.isHiddenWithItsActor`): a report reaches the admins whoever filed it.
    static func hidingClause(_ hiding: Set<Int64>) -> SQLQuery {
        let standing: SQLQuery = " AND \(AccountStanding.notSuspended("notifications.actor_id"))"
        guard !hiding.isEmpty else { return standing }
        let kept = ActivityNotification.Kind.allCases.filter { !$0.isHiddenWithItsActor }.map(\.rawValue)
        return
            "\(standing) AND (notifications.type \(isIn: kept) OR NOT notifications.actor_id \(isIn: hiding.sorted()))"
    }

    /// The notifications `conditions` select, with their actors and whether they are read, in one query, then
    /// all their tweets in one more (a tweet by a suspended account, or gone, leaves its notification without
    /// one).
    private func fetch(
        _ recipientID: Int64, _ conditions: [SQLQuery], hiding: Set<Int64>, order: String, limit: Int
    ) async throws -> [ActivityNotification] {
        let statement: SQLQuery = """
            SELECT notifications.id, notifications.type, notifications.created_at, notifications.tweet_id,
                notifications.report_id, users.id AS actor_id, users.username,
                notifications.id <= \(Self.marker(recipientID)) AS read
            FROM notifications JOIN users ON users.id = notifications.actor_id
            WHERE \(conditions.joined(separator: " AND "))\(Self.hidingClause(hiding))
            ORDER BY notifications.id \(unescaped: order) LIMIT \(limit)
            """
        return try await database.read { connection in
            let rows = try await connection.rows(statement)
            let tweetIDs = try rows.compactMap { try $0.column("tweet_id", as: Int64?.self) }
            var tweets: [Int64: Tweet] = [:]
            for tweet in try await TweetRows.fetchAll(connection, ids: tweetIDs) { tweets[tweet.id] = tweet }
            return try rows.compactMap { row in
                guard let type = ActivityNotification.Kind(rawValue: try row.column("type")) else { return nil }
                return ActivityNotification(
                    id: try row.column("id"), type: type, createdAt: try row.column("created_at"),
                    from: .init(id: try row.column("actor_id"), username: try row.column("username")),
                    tweet: try row.column("tweet_id", as: Int64?.self).flatMap { tweets[$0] },
                    read: try row.column("read"), reportID: try row.column("report_id"))
            }
        }
    }
}
