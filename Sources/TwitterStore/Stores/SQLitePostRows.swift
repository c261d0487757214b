import Foundation
import GRDB
import TwitterCore
import TwitterSQL

/// A batch of posts' rows on SQLite, written through GRDB itself, a statement a row, each compiled once, on the
/// connection the batch's `BatchWriter` reads through. This is the hot path of posting, so it keeps what the
/// committer measured: the batch's time formatted once (Foundation's date formatting had been a third of the
/// writer's time), the new id from `lastInsertedRowID` (a `RETURNING` clause made SQLite gather the row in a table
/// of its own, whose page it allocated and zeroed for every post), and each author's name read once a batch.
struct SQLitePostRows: PostRowWriting {
    func insertTweets(_ tweets: [NewTweet], at now: Date, on connection: any SQLConnection) async throws
        -> [(id: Int64, username: String)]
    {
        let db = try Self.database(of: connection)
        let storedNow = now.databaseValue
        var usernames: [Int64: String] = [:]
        var written: [(id: Int64, username: String)] = []
        written.reserveCapacity(tweets.count)
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO tweets (author_id, text, created_at, idempotency_key, in_reply_to_id, quote_of)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
        for tweet in tweets {
            try insert.execute(
                arguments: [
                    tweet.authorID, tweet.text, storedNow, tweet.idempotencyKey, tweet.inReplyToID, tweet.quoteOfID,
                ])
            let id = db.lastInsertedRowID
            if usernames[tweet.authorID] == nil {
                usernames[tweet.authorID] =
                    try String.fetchOne(
                        db.cachedStatement(sql: "SELECT username FROM users WHERE id = ?"), arguments: [tweet.authorID])
                    ?? ""
            }
            written.append((id, usernames[tweet.authorID] ?? ""))
        }
        return written
    }

    func insertMentions(_ mentions: [(tweetID: Int64, accountID: Int64)], on connection: any SQLConnection)
        async throws
    {
        guard !mentions.isEmpty else { return }
        let db = try Self.database(of: connection)
        let insert = try db.cachedStatement(
            sql: "INSERT INTO tweet_mentions (tweet_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING")
        for mention in mentions { try insert.execute(arguments: [mention.tweetID, mention.accountID]) }
    }

    func insertTags(_ tagged: [TaggedTweet], at now: Date, on connection: any SQLConnection) async throws {
        let db = try Self.database(of: connection)
        let storedNow = now.databaseValue
        for tweet in tagged {
            for key in tweet.tagKeys {
                try db.cachedStatement(
                    sql: "INSERT INTO tweet_tags (tag, tweet_id, author_id, created_at) VALUES (?, ?, ?, ?)"
                ).execute(arguments: [key, tweet.tweetID, tweet.authorID, storedNow])
            }
        }
    }

    func insertNotifications(_ planned: [PlannedNotificationRow], at now: Date, on connection: any SQLConnection)
        async throws -> [Int64]
    {
        guard !planned.isEmpty else { return [] }
        let db = try Self.database(of: connection)
        let storedNow = now.databaseValue
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO notifications (recipient_id, type, actor_id, tweet_id, created_at) VALUES (?, ?, ?, ?, ?)
                """)
        var ids: [Int64] = []
        for row in planned {
            try insert.execute(
                arguments: [
                    row.notification.recipientID, row.notification.kind.rawValue, row.actor.id, row.tweet?.id,
                    storedNow,
                ])
            ids.append(db.lastInsertedRowID)
        }
        return ids
    }

    /// The GRDB connection the batch runs on: the SQLite committer hands its `BatchWriter` no other.
    private static func database(of connection: any SQLConnection) throws -> Database {
        guard let sqlite = connection as? SQLiteConnection else {
            throw TwitterError(.internal, "SQLite's post rows were handed another database's connection")
        }
        return sqlite.db
    }
}
