import Foundation
import TwitterCore
import TwitterSQL

/// A batch of posts' rows on PostgreSQL: one statement for all the tweets, one for their mentions, one for
/// their tags and one for their notifications, each column an array unnested side by side, `WITH ORDINALITY …
/// ORDER BY n` giving out the ids in the batch's order; 0 or '' stands for none (an array holds no NULL in
/// postgres-nio's encoding). A round trip per row had been the batch's cost.
struct BulkPostRows: PostRowWriting {
    func insertTweets(_ tweets: [NewTweet], at now: Date, on connection: any SQLConnection) async throws
        -> [(id: Int64, username: String)]
    {
        let rows = try await connection.rows(
            SQLQuery(
                InsertTweets.self, now, tweets.map(\.authorID), tweets.map(\.text),
                tweets.map { Int64($0.idempotencyKey == nil ? 0 : 1) }, tweets.map { $0.idempotencyKey ?? "" },
                tweets.map { $0.inReplyToID ?? 0 }, tweets.map { $0.quoteOfID ?? 0 }))
        // Ids were given out in the batch's order; RETURNING need not list them in it.
        return try rows.map { (try $0.column("id", as: Int64.self), try $0.column("username", as: String?.self) ?? "") }
            .sorted { $0.0 < $1.0 }
    }

    private enum InsertTweets: SQLText {
        static let sql: SQLQuery = """
            INSERT INTO tweets (author_id, text, created_at, idempotency_key, in_reply_to_id, quote_of)
            SELECT author_id, text, $1, CASE WHEN keyed = 1 THEN idempotency_key END, NULLIF(in_reply_to_id, 0),
                NULLIF(quote_of, 0)
            FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::text[], $6::bigint[], $7::bigint[]) WITH ORDINALITY
                AS batch(author_id, text, keyed, idempotency_key, in_reply_to_id, quote_of, n)
            ORDER BY n
            RETURNING id, (SELECT username FROM users WHERE users.id = tweets.author_id) AS username
            """
    }

    func insertMentions(_ mentions: [(tweetID: Int64, accountID: Int64)], on connection: any SQLConnection)
        async throws
    {
        guard !mentions.isEmpty else { return }
        try await connection.run(SQLQuery(InsertMentions.self, mentions.map(\.tweetID), mentions.map(\.accountID)))
    }

    private enum InsertMentions: SQLText {
        static let sql: SQLQuery = """
            INSERT INTO tweet_mentions (tweet_id, user_id) SELECT * FROM unnest($1::bigint[], $2::bigint[])
            ON CONFLICT DO NOTHING
            """
    }

    func insertTags(_ tagged: [TaggedTweet], at now: Date, on connection: any SQLConnection) async throws {
        var tags: [String] = []
        var tweetIDs: [Int64] = []
        var authorIDs: [Int64] = []
        for tweet in tagged {
            for key in tweet.tagKeys {
                tags.append(key)
                tweetIDs.append(tweet.tweetID)
                authorIDs.append(tweet.authorID)
            }
        }
        guard !tags.isEmpty else { return }
        try await connection.run(SQLQuery(InsertTags.self, tags, tweetIDs, authorIDs, now))
    }

    private enum InsertTags: SQLText {
        static let sql: SQLQuery = """
            INSERT INTO tweet_tags (tag, tweet_id, author_id, created_at)
            SELECT tag, tweet_id, author_id, $4 FROM unnest($1::text[], $2::bigint[], $3::bigint[])
                AS batch(tag, tweet_id, author_id)
            """
    }

    func insertNotifications(_ planned: [PlannedNotificationRow], at now: Date, on connection: any SQLConnection)
        async throws -> [Int64]
    {
        guard !planned.isEmpty else { return [] }
        return try await connection.values(
            SQLQuery(
                InsertNotifications.self, planned.map(\.notification.recipientID),
                planned.map(\.notification.kind.rawValue), planned.map(\.actor.id), planned.map { $0.tweet?.id ?? 0 },
                now),
            as: Int64.self
        ).sorted()
    }

    private enum InsertNotifications: SQLText {
        static let sql: SQLQuery = """
            INSERT INTO notifications (recipient_id, type, actor_id, tweet_id, created_at)
            SELECT recipient_id, type, actor_id, NULLIF(tweet_id, 0), $5
            FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[]) WITH ORDINALITY
                AS batch(recipient_id, type, actor_id, tweet_id, n)
            ORDER BY n
            RETURNING id
            """
    }
}
