import PostgresNIO
import TwitterCore

/// Deleting one tweet inside a write, as the SQLite store's `TweetStore.delete` does: used by an author's
/// deletion, an unrepost, a moderator's removal and an account's deletion.
enum TweetDeletion {
    /// Deletes tweet `id` and returns the events: its reposts' deletions first, its own, then changed counts.
    /// A suspended author's reply or repost is out of the counters already (`Contributions`).
    static func delete(
        _ id: Int64, authorID: Int64, repostOf original: Int64?, inReplyTo parent: Int64?,
        in connection: PostgresConnection
    ) async throws -> [TweetEvent] {
        var events: [TweetEvent] = try await connection.rows(
            "SELECT id, author_id FROM tweet WHERE repost_of_id = \(id) ORDER BY id"
        ).map { .deleted(id: try $0.column("id"), authorID: try $0.column("author_id"), repostOf: id) }
        if original == nil {
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
                    ON CONFLICT (id) DO UPDATE SET in_reply_to_id = excluded.in_reply_to_id
                    """)
            }
        }
        try await connection.run("DELETE FROM tweet WHERE id = \(id)")  // reposts and likes go with it
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
