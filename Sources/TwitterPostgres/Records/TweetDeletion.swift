import PostgresNIO
import TwitterCore

/// The one way a tweet is deleted, whoever deletes it (its author, a moderator, an unrepost), as the SQLite
/// store's `TweetStore.delete` does it, so both backends leave the same conversations and counters behind.
enum TweetDeletion {
    /// Deletes tweet `id` and returns the events: its reposts' deletions first, its own, then changed counts.
    /// A suspended author's reply or repost is out of the counters already (`Contributions`), so they are left
    /// alone then: moving them again would take the author's part out twice.
    static func delete(
        _ id: Int64, authorID: Int64, repostOf original: Int64?, inReplyTo parent: Int64?,
        in connection: PostgresConnection
    ) async throws -> [TweetEvent] {
        var events: [TweetEvent] = try await connection.rows(
            "SELECT id, author_id FROM tweet WHERE repost_of_id = \(id) ORDER BY id"
        ).map { .deleted(id: try $0.column("id"), authorID: try $0.column("author_id"), repostOf: id) }
        if original == nil {
            // A tweet in a conversation keeps its place there as a tombstone; a repost never holds one.
            let hasReplies =
                try await connection.value(
                    """
                    SELECT EXISTS(SELECT 1 FROM tweet WHERE in_reply_to_id = \(id))
                        OR EXISTS(SELECT 1 FROM tweet_tombstone WHERE in_reply_to_id = \(id))
                    """, as: Bool.self) ?? false
            if parent != nil || hasReplies {
                try await connection.run(
                    """
                    INSERT INTO tweet_tombstone (id, in_reply_to_id) VALUES (\(id), \(parent))
                    ON CONFLICT (id) DO UPDATE SET in_reply_to_id = EXCLUDED.in_reply_to_id
                    """)
            }
        }
        // Its reposts, likes, tags, mentions and the notifications about it cascade.
        try await connection.run("DELETE FROM tweet WHERE id = \(id)")
        events.append(.deleted(id: id, authorID: authorID, repostOf: original))
        guard try await !Contributions.areWithdrawn(connection, of: authorID) else { return events }
        if let parent, let counts = try await TweetRows.adjust(connection, parent, .replies, by: -1) {
            events.append(.counted(id: parent, counts))
        }
        if let original, let counts = try await TweetRows.adjust(connection, original, .reposts, by: -1) {
            events.append(.counted(id: original, counts))
        }
        return events
    }
}
