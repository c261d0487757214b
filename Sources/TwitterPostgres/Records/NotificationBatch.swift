import Foundation
import PostgresNIO
import TwitterCore
import TwitterRules

/// The notifications of a batch of posts, written in one statement (`BatchWriter`): on PostgreSQL a round trip
/// per notification was the batch's cost.
enum NotificationBatch {
    /// A notification a rule planned, with who caused it and the tweet it is about.
    struct Planned {
        let notification: PlannedNotification
        let actor: Tweet.Author
        let tweet: Tweet?
    }

    /// Writes the notifications rules planned, in one statement, their ids given out in their order; returns
    /// each with its id and its recipient, in that order.
    static func insert(_ connection: PostgresConnection, _ planned: [Planned], at now: Date) async throws
        -> [(ActivityNotification, recipientID: Int64)]
    {
        guard !planned.isEmpty else { return [] }
        // Ids were given out in the statement's order; RETURNING need not list them in it.
        let ids = try await connection.values(
            Prepared<InsertNotifications>(
                planned.map(\.notification.recipientID), planned.map(\.notification.kind.rawValue),
                planned.map(\.actor.id), planned.map { $0.tweet?.id ?? 0 }, now),
            as: Int64.self
        ).sorted()
        guard ids.count == planned.count else {
            throw TwitterError(.internal, "\(planned.count) notifications were written, \(ids.count) came back")
        }
        return zip(planned, ids).map { planned, id in
            let notification = ActivityNotification(
                id: id, type: planned.notification.kind, createdAt: now,
                from: .init(id: planned.actor.id, username: planned.actor.username), tweet: planned.tweet)
            return (notification, planned.notification.recipientID)
        }
    }

    /// Notifications as `TweetInsert` writes tweets: one array per column, `ORDER BY n` giving out the ids in
    /// their order, and 0 for no tweet (arrays hold no NULLs in postgres-nio's encoding).
    enum InsertNotifications: PreparedText {
        static let sql = """
            INSERT INTO notifications (recipient_id, type, actor_id, tweet_id, created_at)
            SELECT recipient_id, type, actor_id, NULLIF(tweet_id, 0), $5
            FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[]) WITH ORDINALITY
                AS batch(recipient_id, type, actor_id, tweet_id, n)
            ORDER BY n
            RETURNING id
            """
    }
}
