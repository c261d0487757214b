import Foundation
import TwitterCore
import TwitterRules

/// The notifications a rule planned, written or withdrawn inside the write that caused them, and the accounts
/// named in them.
public enum NotificationRows {
    /// Writes a notification a rule planned, returning it with its id and its recipient.
    public static func insert(
        _ connection: any SQLConnection, _ planned: PlannedNotification, by actor: Tweet.Author, tweet: Tweet?,
        at now: Date
    ) async throws -> (ActivityNotification, recipientID: Int64) {
        guard
            let id = try await connection.value(
                SQLQuery(Insert.self, planned.recipientID, planned.kind.rawValue, actor.id, tweet?.id, now),
                as: Int64.self)
        else { throw TwitterError(.internal, "The notification just written has no id") }
        let notification = ActivityNotification(
            id: id, type: planned.kind, createdAt: now, from: .init(id: actor.id, username: actor.username),
            tweet: tweet)
        return (notification, planned.recipientID)
    }

    private enum Insert: SQLText {
        static let sql: SQLQuery = """
            INSERT INTO notifications (recipient_id, type, actor_id, tweet_id, created_at)
            VALUES (\(param: 1), \(param: 2), \(param: 3), \(param: 4, as: .integer), \(param: 5)) RETURNING id
            """
    }

    /// Withdraws the notifications of `type` that `actorID` caused `recipientID`, about `tweetID` when given.
    public static func withdraw(
        _ connection: any SQLConnection, _ type: ActivityNotification.Kind, by actorID: Int64, to recipientID: Int64,
        tweetID: Int64? = nil
    ) async throws {
        try await connection.run(SQLQuery(Withdraw.self, recipientID, actorID, type.rawValue, tweetID ?? 0))
    }

    /// No tweet is 0, which no tweet is.
    private enum Withdraw: SQLText {
        static let sql: SQLQuery = """
            DELETE FROM notifications WHERE recipient_id = \(param: 1) AND actor_id = \(param: 2)
                AND type = \(param: 3) AND (\(param: 4) = 0 OR tweet_id = \(param: 4))
            """
    }

    /// An account's public face.
    public static func account(_ connection: any SQLConnection, _ id: Int64) async throws -> Tweet.Author {
        Tweet.Author(id: id, username: try await connection.value(SQLQuery(Username.self, id), as: String.self) ?? "")
    }

    private enum Username: SQLText {
        static let sql: SQLQuery = "SELECT username FROM users WHERE id = \(param: 1)"
    }
}
