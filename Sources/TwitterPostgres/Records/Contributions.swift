import PostgresNIO

/// What one account adds to other tweets' counters: its likes, its reposts, its replies and its quotes. Taken out when the
/// account leaves (suspension, deletion) and put back when a suspension is lifted, in the transaction that
/// changes its standing (as in the SQLite store, whose comment says why nothing else moves them meanwhile).
enum Contributions {
    /// Moves the counters `userID` contributes to by `sign`: -1 to take them out, +1 to put them back.
    static func move(_ connection: PostgresConnection, of userID: Int64, by sign: Int) async throws {
        try await connection.run(
            """
            UPDATE tweets SET likes_count = likes_count + \(sign)
            WHERE id IN (SELECT tweet_id FROM tweet_likes WHERE user_id = \(userID))
            """)
        try await connection.run(
            """
            UPDATE tweets SET reposts_count = reposts_count + \(sign)
            WHERE id IN (SELECT repost_of_id FROM tweets WHERE author_id = \(userID) AND repost_of_id IS NOT NULL)
            """)
        try await connection.run(
            """
            UPDATE tweets SET replies_count = replies_count + \(sign) * (
                SELECT count(*) FROM tweets AS reply WHERE reply.in_reply_to_id = tweets.id AND reply.author_id = \(userID))
            WHERE id IN (SELECT in_reply_to_id FROM tweets WHERE author_id = \(userID) AND in_reply_to_id IS NOT NULL)
            """)
        try await connection.run(
            """
            UPDATE tweets SET quotes_count = quotes_count + \(sign) * (
                SELECT count(*) FROM tweets AS quote WHERE quote.quote_of = tweets.id AND quote.author_id = \(userID))
            WHERE id IN (SELECT quote_of FROM tweets WHERE author_id = \(userID) AND quote_of IS NOT NULL)
            """)
    }

    /// Whether `userID` is suspended now: its contributions are out of the counters already.
    static func areWithdrawn(_ connection: PostgresConnection, of userID: Int64) async throws -> Bool {
        try await connection.value(
            "SELECT suspended_at IS NOT NULL FROM users WHERE id = \(userID)", as: Bool.self) ?? false
    }
}
