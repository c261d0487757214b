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
        return Set(try await connection.values(Prepared<Blocked>(account, candidates), as: Int64.self))
    }

    enum Blocked: PreparedText {
        static let sql = """
            SELECT blocked_id FROM blocks WHERE blocker_id = $1 AND blocked_id = ANY($2)
            UNION SELECT blocker_id FROM blocks WHERE blocked_id = $1 AND blocker_id = ANY($2)
            """
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
        try await connection.value(Prepared<Blocker>(one, other), as: Int64.self)
    }

    enum Blocker: PreparedText {
        static let sql = """
            SELECT blocker_id FROM blocks
            WHERE (blocker_id = $1 AND blocked_id = $2) OR (blocker_id = $2 AND blocked_id = $1)
            LIMIT 1
            """
    }

    /// Writes a notification a rule planned, returning it with its id and its recipient.
    static func insert(
        _ connection: PostgresConnection, _ planned: PlannedNotification, by actor: Tweet.Author, tweet: Tweet?,
        at now: Date
    ) async throws -> (ActivityNotification, recipientID: Int64) {
        try await insert(connection, [Planned(notification: planned, actor: actor, tweet: tweet)], at: now)[0]
    }

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

    /// Withdraws the notifications of `type` that `actorID` caused `recipientID`, about `tweetID` when given.
    static func withdraw(
        _ connection: PostgresConnection, _ type: ActivityNotification.Kind, by actorID: Int64, to recipientID: Int64,
        tweetID: Int64? = nil
    ) async throws {
        try await connection.run(Prepared<Withdraw>(recipientID, actorID, type.rawValue, tweetID))
    }

    enum Withdraw: PreparedText {
        static let sql = """
            DELETE FROM notifications WHERE recipient_id = $1 AND actor_id = $2
                AND type = $3 AND ($4::bigint IS NULL OR tweet_id = $4::bigint)
            """
    }

    /// The author of tweet `id`.
    static func author(_ connection: PostgresConnection, of id: Int64) async throws -> Tweet.Author? {
        try await connection.firstRow(Prepared<Author>(id)).map {
            Tweet.Author(id: try $0.column("id"), username: try $0.column("username"))
        }
    }

    enum Author: PreparedText {
        static let sql =
            "SELECT users.id, users.username FROM tweets JOIN users ON users.id = tweets.author_id WHERE tweets.id = $1"
    }

    /// An account's public face.
    static func account(_ connection: PostgresConnection, _ id: Int64) async throws -> Tweet.Author {
        let username = try await connection.value(Prepared<Username>(id), as: String.self)
        return Tweet.Author(id: id, username: username ?? "")
    }

    enum Username: PreparedText {
        static let sql = "SELECT username FROM users WHERE id = $1"
    }
}
