import Foundation
import PostgresNIO
import TwitterCore
import TwitterRules

/// The reads and writes every interaction between two accounts shares: who blocks whom, the notifications a
/// rule planned (written, or withdrawn when the action is undone). What to do is `TwitterRules`' decision.
enum Interactions {
    /// The accounts among `candidates` that block `account` or that it blocks; no query for none.
    static func blocked(_ connection: PostgresConnection, with account: Int64, among candidates: [Int64]) async throws
        -> Set<Int64>
    {
        guard !candidates.isEmpty else { return [] }
        return Set(
            try await connection.values(
                """
                SELECT blocked_id FROM blocks WHERE blocker_id = \(account) AND blocked_id = ANY(\(candidates))
                UNION SELECT blocker_id FROM blocks WHERE blocked_id = \(account) AND blocker_id = ANY(\(candidates))
                """, as: Int64.self))
    }

    /// The tweet a reply, like or repost of `id` goes to (the original, for a repost) and its author. `.notFound`
    /// when it is missing, and, for `actor`, when `TweetVisibility` hides it across a block with the author of
    /// the tweet named or of its original: the facts are read in the write's transaction, so a block committed
    /// just before is seen.
    static func target(_ connection: PostgresConnection, of id: Int64, for actor: Int64?) async throws
        -> (id: Int64, author: Tweet.Author)
    {
        guard let target = try await TweetRows.target(connection, of: id),
            let author = try await author(connection, of: target)
        else { throw TwitterError.notFound("Tweet \(id)") }
        guard let actor else { return (target, author) }
        let named = target == id ? author.id : try await self.author(connection, of: id)?.id ?? author.id
        try TweetVisibility(try await blocks(connection, of: actor, among: [named, author.id]))
            .requireAccess(toTweet: id, author: named, originalAuthor: author.id)
        return (target, author)
    }

    /// The blocks between `actor` and `accounts`, either way, as `actor`'s hidden accounts.
    static func blocks(_ connection: PostgresConnection, of actor: Int64, among accounts: [Int64]) async throws
        -> HiddenAccounts
    {
        var hidden = HiddenAccounts()
        for other in Set(accounts) where other != actor {
            switch try await blocker(connection, between: actor, and: other) {
            case actor?: hidden.blocking.insert(other)
            case .some: hidden.blockedBy.insert(other)
            case nil: break
            }
        }
        return hidden
    }

    /// Who blocks whom between two accounts, if either does.
    static func blocker(_ connection: PostgresConnection, between one: Int64, and other: Int64) async throws -> Int64? {
        try await connection.value(
            """
            SELECT blocker_id FROM blocks
            WHERE (blocker_id = \(one) AND blocked_id = \(other)) OR (blocker_id = \(other) AND blocked_id = \(one))
            LIMIT 1
            """, as: Int64.self)
    }

    /// Writes a notification a rule planned, returning it with its id and its recipient.
    static func insert(
        _ connection: PostgresConnection, _ planned: PlannedNotification, by actor: Tweet.Author, tweet: Tweet?,
        at now: Date
    ) async throws -> (ActivityNotification, recipientID: Int64) {
        guard
            let id = try await connection.value(
                """
                INSERT INTO notifications (recipient_id, type, actor_id, tweet_id, created_at)
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
            DELETE FROM notifications WHERE recipient_id = \(recipientID) AND actor_id = \(actorID)
                AND type = \(type.rawValue) AND (\(tweetID)::bigint IS NULL OR tweet_id = \(tweetID))
            """)
    }

    /// The author of tweet `id`.
    static func author(_ connection: PostgresConnection, of id: Int64) async throws -> Tweet.Author? {
        try await connection.firstRow(
            "SELECT users.id, users.username FROM tweets JOIN users ON users.id = tweets.author_id WHERE tweets.id = \(id)"
        ).map { Tweet.Author(id: try $0.column("id"), username: try $0.column("username")) }
    }

    /// An account's public face.
    static func account(_ connection: PostgresConnection, _ id: Int64) async throws -> Tweet.Author {
        let username = try await connection.value("SELECT username FROM users WHERE id = \(id)", as: String.self)
        return Tweet.Author(id: id, username: username ?? "")
    }
}
