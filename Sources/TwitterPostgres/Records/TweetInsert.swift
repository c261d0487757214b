import Foundation
import PostgresNIO

/// The insert every post makes, as a named prepared statement: each pooled connection parses and plans it
/// once, and every later post sends only its values. The one statement run per post in every batch, so the
/// one where skipping the parse shows; the other statements are sent with their values bound, unnamed.
struct TweetInsert: PostgresPreparedStatement {
    static let sql = """
        INSERT INTO tweets (author_id, text, created_at, idempotency_key, in_reply_to_id, quote_of)
        VALUES ($1, $2, $3, $4, $5, $6) RETURNING id
        """
    typealias Row = Int64

    let authorID: Int64
    let text: String
    let createdAt: Date
    let idempotencyKey: String?
    let inReplyToID: Int64?
    let quoteOfID: Int64?

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 6)
        bindings.append(authorID)
        bindings.append(text)
        bindings.append(createdAt)
        bindings.append(idempotencyKey)
        bindings.append(inReplyToID)
        bindings.append(quoteOfID)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int64 {
        try row.decode(Int64.self)
    }
}
