import GRDB

/// What one account adds to other tweets' counters: its likes, its reposts, its replies and its quotes. Taken out when the
/// account leaves (suspension, deletion) and put back when a suspension is lifted, in the transaction that
/// changes its standing, so every count reads as if the account had never been there, and exactly as before
/// once it is back. Nothing else moves these counters while the account is suspended: it cannot act, its
/// tweets cannot be liked, reposted or answered by others (they are not found), and a moderator's deletion of
/// one of its tweets leaves the counters alone (`TweetStore.delete`).
enum Contributions {
    /// Moves the counters `userID` contributes to by `sign`: -1 to take them out, +1 to put them back.
    static func move(_ db: Database, of userID: Int64, by sign: Int) throws {
        // One statement each: GRDB binds arguments statement by statement.
        for sql in [
            """
            UPDATE tweets SET likes_count = likes_count + ?1
            WHERE id IN (SELECT tweet_id FROM tweet_likes WHERE user_id = ?2)
            """,
            """
            UPDATE tweets SET reposts_count = reposts_count + ?1
            WHERE id IN (SELECT repost_of_id FROM tweets WHERE author_id = ?2 AND repost_of_id IS NOT NULL)
            """,
            """
            UPDATE tweets SET replies_count = replies_count
                + ?1 * (SELECT COUNT(*) FROM tweets AS reply WHERE reply.in_reply_to_id = tweets.id AND reply.author_id = ?2)
            WHERE id IN (SELECT in_reply_to_id FROM tweets WHERE author_id = ?2 AND in_reply_to_id IS NOT NULL)
            """,
            """
            UPDATE tweets SET quotes_count = quotes_count
                + ?1 * (SELECT COUNT(*) FROM tweets AS quote WHERE quote.quote_of = tweets.id AND quote.author_id = ?2)
            WHERE id IN (SELECT quote_of FROM tweets WHERE author_id = ?2 AND quote_of IS NOT NULL)
            """,
        ] {
            try db.execute(sql: sql, arguments: [sign, userID])
        }
    }

    /// Whether `userID` is suspended now: its contributions are out of the counters already.
    static func areWithdrawn(_ db: Database, of userID: Int64) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT suspended_at IS NOT NULL FROM users WHERE id = ?"), arguments: [userID])
            ?? false
    }
}
