import TwitterCore
import TwitterRules

/// The one way a tweet is deleted, whoever deletes it (its author, a moderator, an unrepost): the facts
/// `DeletionRule` decides on, read here, and its plan written.
public enum TweetDeletion {
    /// Deletes tweet `id` as `DeletionRule` plans it and returns the events.
    public static func delete(
        _ id: Int64, authorID: Int64, repostOf original: Int64?, inReplyTo parent: Int64?,
        in connection: any SQLConnection
    ) async throws -> [CommitEvent] {
        let reposts = try await connection.rows(
            "SELECT id, author_id FROM tweets WHERE repost_of_id = \(id) ORDER BY id"
        ).map { (id: try $0.column("id", as: Int64.self), authorID: try $0.column("author_id", as: Int64.self)) }
        var hasReplies = false
        if DeletionRule.mayKeepItsPlace(repostOf: original) {
            hasReplies =
                try await connection.value(
                    """
                    SELECT EXISTS(SELECT 1 FROM tweets WHERE in_reply_to_id = \(id))
                        OR EXISTS(SELECT 1 FROM tweet_tombstones WHERE in_reply_to_id = \(id))
                    """, as: Bool.self) ?? false
        }
        let quoteOf = try await connection.value("SELECT quote_of FROM tweets WHERE id = \(id)", as: Int64.self)
        let facts = DeletionFacts(
            id: id, authorID: authorID, repostOf: original, inReplyTo: parent, reposts: reposts,
            hasReplies: hasReplies, authorWithdrawn: try await Contributions.areWithdrawn(connection, of: authorID),
            quoteOf: quoteOf)
        let plan = DeletionRule.plan(facts)
        if let tombstone = plan.tombstone {
            try await connection.run(
                """
                INSERT INTO tweet_tombstones (id, in_reply_to_id) VALUES (\(tombstone.id), \(tombstone.inReplyToID))
                ON CONFLICT (id) DO UPDATE SET in_reply_to_id = EXCLUDED.in_reply_to_id
                """)
        }
        // Its reposts, likes, tags, mentions and the notifications about it cascade.
        try await connection.run("DELETE FROM tweets WHERE id = \(id)")
        var counted: [(id: Int64, counts: TweetCounts)] = []
        for (tweetID, counter) in plan.counters {
            if let counts = try await TweetRows.adjust(connection, tweetID, counter, by: -1) {
                counted.append((tweetID, counts))
            }
        }
        return DeletionRule.events(facts, counted: counted)
    }
}
