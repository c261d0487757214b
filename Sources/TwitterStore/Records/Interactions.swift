import Foundation
import GRDB
import TwitterCore
import TwitterRules

/// The reads and writes every interaction between two accounts shares: who blocks whom, the notifications a
/// rule planned (written, or withdrawn when the action is undone). What to do is `TwitterRules`' decision.
enum Interactions {
    /// The accounts among `candidates` that block `account` or that it blocks; no read for none.
    static func blocked(_ db: Database, with account: Int64, among candidates: [Int64]) throws -> Set<Int64> {
        guard !candidates.isEmpty else { return [] }
        let marks = databaseQuestionMarks(count: candidates.count)
        return Set(
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT blocked_id FROM blocks WHERE blocker_id = ? AND blocked_id IN (\(marks))
                    UNION SELECT blocker_id FROM blocks WHERE blocked_id = ? AND blocker_id IN (\(marks))
                    """,
                arguments: StatementArguments([account] + candidates + [account] + candidates)))
    }

    /// The tweet a reply, like or repost of `id` goes to (the original, for a repost) and its author. `.notFound`
    /// when it is missing, and, for `actor`, when `TweetVisibility` hides it across a block with the author of
    /// the tweet named or of its original: the facts are read in the write's transaction, so a block committed
    /// just before is seen.
    static func target(_ db: Database, of id: Int64, for actor: Int64?) throws -> (id: Int64, author: Tweet.Author) {
        guard let target = try TweetRows.target(db, of: id), let author = try author(db, of: target) else {
            throw TwitterError.notFound("Tweet \(id)")
        }
        guard let actor else { return (target, author) }
        let named = target == id ? author.id : try self.author(db, of: id)?.id ?? author.id
        try TweetVisibility(try blocks(db, of: actor, among: [named, author.id]))
            .requireAccess(toTweet: id, author: named, originalAuthor: author.id)
        return (target, author)
    }

    /// The blocks between `actor` and `accounts`, either way, as `actor`'s hidden accounts.
    static func blocks(_ db: Database, of actor: Int64, among accounts: [Int64]) throws -> HiddenAccounts {
        var hidden = HiddenAccounts()
        for other in Set(accounts) where other != actor {
            switch try blocker(db, between: actor, and: other) {
            case actor?: hidden.blocking.insert(other)
            case .some: hidden.blockedBy.insert(other)
            case nil: break
            }
        }
        return hidden
    }

    /// Who blocks whom between two accounts, if either does.
    static func blocker(_ db: Database, between one: Int64, and other: Int64) throws -> Int64? {
        try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT blocker_id FROM blocks
                    WHERE (blocker_id = ?1 AND blocked_id = ?2) OR (blocker_id = ?2 AND blocked_id = ?1) LIMIT 1
                    """), arguments: [one, other])
    }

    /// Writes a notification a rule planned, returning it with its id and its recipient.
    static func insert(
        _ db: Database, _ planned: PlannedNotification, by actor: Tweet.Author, tweet: Tweet?, at now: Date
    ) throws -> (ActivityNotification, recipientID: Int64) {
        try db.cachedStatement(
            sql: "INSERT INTO notifications (recipient_id, type, actor_id, tweet_id, created_at) VALUES (?, ?, ?, ?, ?)"
        ).execute(arguments: [planned.recipientID, planned.kind.rawValue, actor.id, tweet?.id, now])
        let notification = ActivityNotification(
            id: db.lastInsertedRowID, type: planned.kind, createdAt: now,
            from: .init(id: actor.id, username: actor.username), tweet: tweet)
        return (notification, planned.recipientID)
    }

    /// Withdraws the notifications of `type` that `actorID` caused `recipientID`, about `tweetID` when given.
    static func withdraw(
        _ db: Database, _ type: ActivityNotification.Kind, by actorID: Int64, to recipientID: Int64,
        tweetID: Int64? = nil
    ) throws {
        try db.execute(
            sql: """
                DELETE FROM notifications WHERE recipient_id = ? AND actor_id = ? AND type = ?
                    AND (?4 IS NULL OR tweet_id = ?4)
                """, arguments: [recipientID, actorID, type.rawValue, tweetID])
    }

    /// The author of tweet `id`.
    static func author(_ db: Database, of id: Int64) throws -> Tweet.Author? {
        try Row.fetchOne(
            db.cachedStatement(
                sql:
                    "SELECT users.id, users.username FROM tweets JOIN users ON users.id = tweets.author_id WHERE tweets.id = ?"
            ), arguments: [id]
        ).map { Tweet.Author(id: $0["id"], username: $0["username"]) }
    }

    /// An account's public face.
    static func account(_ db: Database, _ id: Int64) throws -> Tweet.Author {
        let username = try String.fetchOne(
            db.cachedStatement(sql: "SELECT username FROM users WHERE id = ?"), arguments: [id])
        return Tweet.Author(id: id, username: username ?? "")
    }
}
