/// What one account adds to others' counters: its likes, its reposts, its replies and its quotes of their tweets,
/// and its places in their lists (`membersCount`, which `lists.members` must agree with). Taken out when
/// the account leaves (suspension, deletion) and put back when a suspension is lifted, in the transaction that
/// changes its standing, so every count reads as if the account had never been there, and exactly as before
/// once it is back. Nothing else moves these counters while the account is suspended: it cannot act, its
/// tweets cannot be liked, reposted or answered by others (they are not found), and a moderator's deletion of
/// one of its tweets leaves the counters alone (`TweetDeletion`).
public enum Contributions {
    /// Moves the counters `userID` contributes to by `sign`: -1 to take them out, +1 to put them back.
    public static func move(_ connection: any SQLConnection, of userID: Int64, by sign: Int) async throws {
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
        // Nothing moves a suspended member's place in a list either: no method finds the account to add, remove
        // or block it, and its own lists are not the counters it adds to.
        try await connection.run(
            """
            UPDATE lists SET members_count = members_count + \(sign)
            WHERE id IN (SELECT list_id FROM list_members WHERE member_id = \(userID))
            """)
    }

    /// Whether `userID` is suspended now: its contributions are out of the counters already.
    public static func areWithdrawn(_ connection: any SQLConnection, of userID: Int64) async throws -> Bool {
        try await connection.value(
            "SELECT suspended_at IS NOT NULL FROM users WHERE id = \(userID)", as: Bool.self) ?? false
    }
}
