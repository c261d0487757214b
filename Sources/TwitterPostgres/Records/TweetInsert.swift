import Foundation
import PostgresNIO

/// The insert of all the tweets a group commit writes, as one named prepared statement: each pooled connection
/// parses and plans it once, and every batch sends only its columns, one array each, in one round trip where
/// one insert per post took one round trip each. Ids are given out in the order the rows are produced, which
/// `ORDER BY n` makes the batch's order; the caller sorts what `RETURNING` gives back by id to match it.
/// Arrays hold no NULLs in postgres-nio's encoding, so an absent reference is sent as 0 (no tweet has id 0)
/// and an absent key as a `false` beside it.
struct TweetInsert: PostgresPreparedStatement {
    static let sql = """
        INSERT INTO tweets (author_id, text, created_at, idempotency_key, in_reply_to_id, quote_of)
        SELECT author_id, text, $1, CASE WHEN keyed THEN idempotency_key END, NULLIF(in_reply_to_id, 0),
            NULLIF(quote_of, 0)
        FROM unnest($2::bigint[], $3::text[], $4::bool[], $5::text[], $6::bigint[], $7::bigint[]) WITH ORDINALITY
            AS batch(author_id, text, keyed, idempotency_key, in_reply_to_id, quote_of, n)
        ORDER BY n
        RETURNING id, (SELECT username FROM users WHERE users.id = tweets.author_id)
        """
    /// A written tweet's id and its author's name.
    typealias Row = (id: Int64, username: String)

    /// One tweet to write.
    struct Values {
        let authorID: Int64
        let text: String
        let idempotencyKey: String?
        let inReplyToID: Int64?
        let quoteOfID: Int64?
    }

    let createdAt: Date
    let tweets: [Values]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 7)
        bindings.append(createdAt)
        bindings.append(tweets.map(\.authorID))
        bindings.append(tweets.map(\.text))
        bindings.append(tweets.map { $0.idempotencyKey != nil })
        bindings.append(tweets.map { $0.idempotencyKey ?? "" })
        bindings.append(tweets.map { $0.inReplyToID ?? 0 })
        bindings.append(tweets.map { $0.quoteOfID ?? 0 })
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        let (id, username) = try row.decode((Int64, String?).self)
        return (id, username ?? "")
    }
}
