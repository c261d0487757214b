import GRDB

/// What one account adds to other tweets' counters: its likes, its reposts and its replies. Taken out when the
/// account leaves (suspension, deletion) and put back when a suspension is lifted, in the transaction that
/// changes its standing, so every count reads as if the account had never been there, and exactly as before
/// once it is back. Nothing else moves these counters while the account is suspended: it cannot act, its
/// tweets cannot be liked, reposted or answered by others (they are not found), and a moderator's deletion of
/// one of its tweets leaves the counters alone (`TweetStore.delete`).
enum Contributions {
    /// Moves the counters `userID` contributes to by `sign`: -1 to take them out, +1 to put them back.
    static func move(_ db: Database, of userID: Int64, by sign: Int) throws {
        // One statement at a time: in a multi-statement execute, GRDB hands the arguments out statement by
        // statement, so the first took both and the second found none.
        for sql in [
            """
            UPDATE tweet SET likesCount = likesCount + ?1
            WHERE id IN (SELECT tweetId FROM tweetLike WHERE userId = ?2)
            """,
            """
            UPDATE tweet SET repostsCount = repostsCount + ?1
            WHERE id IN (SELECT repostOfId FROM tweet WHERE authorId = ?2 AND repostOfId IS NOT NULL)
            """,
            """
            UPDATE tweet SET repliesCount = repliesCount
                + ?1 * (SELECT COUNT(*) FROM tweet AS reply WHERE reply.inReplyToId = tweet.id AND reply.authorId = ?2)
            WHERE id IN (SELECT inReplyToId FROM tweet WHERE authorId = ?2 AND inReplyToId IS NOT NULL)
            """,
        ] {
            try db.execute(sql: sql, arguments: [sign, userID])
        }
    }

    /// Whether `userID` is suspended now: its contributions are out of the counters already.
    static func areWithdrawn(_ db: Database, of userID: Int64) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT suspendedAt IS NOT NULL FROM user WHERE id = ?"), arguments: [userID])
            ?? false
    }
}
