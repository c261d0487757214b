import Foundation
import PostgresNIO
import TwitterCore
import TwitterRules

/// What every interaction between two accounts does inside its own transaction (as in the SQLite store):
/// refuses it across a block (either way), and notifies the other side, or withdraws the notification when the
/// action is undone.
enum Interactions {
    /// `InteractionRule`'s refusal when a block stands between `actor` and `other`.
    static func requireNoBlock(_ connection: PostgresConnection, actor: Int64, other: Int64) async throws {
        guard actor != other else { return }
        if let refusal = InteractionRule.refusal(
            actor: actor, other: other, blocker: try await blocker(connection, between: actor, and: other))
        {
            throw refusal
        }
    }

    /// The accounts among `candidates` that block `account` or that it blocks; no query for none.
    static func blocked(_ connection: PostgresConnection, with account: Int64, among candidates: [Int64]) async throws
        -> Set<Int64>
    {
        guard !candidates.isEmpty else { return [] }
        return Set(
            try await connection.values(
                """
                SELECT blocked_id FROM block WHERE blocker_id = \(account) AND blocked_id = ANY(\(candidates))
                UNION SELECT blocker_id FROM block WHERE blocked_id = \(account) AND blocker_id = ANY(\(candidates))
                """, as: Int64.self))
    }

    /// Who blocks whom between two accounts, if either does.
    static func blocker(_ connection: PostgresConnection, between one: Int64, and other: Int64) async throws -> Int64? {
        try await connection.value(
            """
            SELECT blocker_id FROM block
            WHERE (blocker_id = \(one) AND blocked_id = \(other)) OR (blocker_id = \(other) AND blocked_id = \(one))
            LIMIT 1
            """, as: Int64.self)
    }

    /// Notifies `recipientID` of `actor`'s action and returns the event to report; nil where `InteractionRule`
    /// says no one is told (one's own action, or across a block).
    static func notify(
        _ connection: PostgresConnection, _ recipientID: Int64, of type: ActivityNotification.Kind,
        by actor: Tweet.Author, tweet: Tweet?, at now: Date
    ) async throws -> TweetEvent? {
        guard recipientID != actor.id else { return nil }
        let blocked = try await blocker(connection, between: recipientID, and: actor.id) != nil
        guard InteractionRule.notifies(recipientID, actor: actor.id, blocked: blocked) else { return nil }
        let (notification, recipient) = try await insert(
            connection, PlannedNotification(recipientID: recipientID, kind: type), by: actor, tweet: tweet, at: now)
        return .notified(notification, recipientID: recipient)
    }

    /// Writes a notification a rule planned, returning it with its id and its recipient.
    static func insert(
        _ connection: PostgresConnection, _ planned: PlannedNotification, by actor: Tweet.Author, tweet: Tweet?,
        at now: Date
    ) async throws -> (ActivityNotification, recipientID: Int64) {
        guard
            let id = try await connection.value(
                """
                INSERT INTO notification (recipient_id, type, actor_id, tweet_id, created_at)
                VALUES (\(planned.recipientID), \(planned.kind.rawValue), \(actor.id), \(tweet?.id), \(now)) RETURNING id
                """, as: Int64.self)
        else { throw TwitterError(.internal, "The notification just written has no id") }
        let notification = ActivityNotification(
            id: id, type: planned.kind, createdAt: now, from: .init(id: actor.id, username: actor.username),
            tweet: tweet)
        return (notification, planned.recipientID)
    }

    /// Withdraws the notifications of `type` that `actorID` caused `recipientID`, about `tweetID` when given.
    static func withdraw(
        _ connection: PostgresConnection, _ type: ActivityNotification.Kind, by actorID: Int64, to recipientID: Int64,
        tweetID: Int64? = nil
    ) async throws {
        try await connection.run(
            """
            DELETE FROM notification WHERE recipient_id = \(recipientID) AND actor_id = \(actorID)
                AND type = \(type.rawValue) AND (\(tweetID)::bigint IS NULL OR tweet_id = \(tweetID))
            """)
    }

    /// The author of tweet `id`.
    static func author(_ connection: PostgresConnection, of id: Int64) async throws -> Tweet.Author? {
        try await connection.firstRow(
            "SELECT users.id, users.username FROM tweet JOIN users ON users.id = tweet.author_id WHERE tweet.id = \(id)"
        ).map { Tweet.Author(id: try $0.column("id"), username: try $0.column("username")) }
    }

    /// An account's public face.
    static func account(_ connection: PostgresConnection, _ id: Int64) async throws -> Tweet.Author {
        let username = try await connection.value("SELECT username FROM users WHERE id = \(id)", as: String.self)
        return Tweet.Author(id: id, username: username ?? "")
    }
}
