import TwitterCore

/// Taking deleted texts out of the commit log. PostgreSQL keeps every commit's events for an hour in
/// `commit_events` (`CommitFeed`), a send's with its sealed text: a deleted message's text must leave it in the
/// same transaction as it leaves `messages`, or a copy of the database would still hold it. SQLite keeps no such
/// log (its commits are delivered from memory), so there is nothing to purge.
enum MessageLogPurge {
    /// Deletes the log entries of the sends of one message or of every message of a sender.
    static func run(_ connection: any SQLConnection, sent match: Match) async throws {
        guard connection.dialect.keepsCommitLog else { return }
        // A send's ordered write logs one entry of one event, `[{"sent":{"_0":<StoredMessage>,"recipientIDs":[…]}}]`
        // (`CommitEvent.message`'s Codable form, the subject's event alone), so the whole entry goes. The prefix
        // keeps the containment test to the sends' entries, which the partial index of PostgreSQL migration 12
        // finds without reading the tweets'.
        try await connection.run(
            """
            DELETE FROM commit_events
            WHERE events LIKE '[{"sent":%' AND events::jsonb @> \(match.pattern)::jsonb
            """)
    }

    /// Which sends' entries go.
    enum Match {
        /// The send of one message.
        case message(Int64)
        /// Every send of one account.
        case sender(Int64)

        /// The JSON the entries must contain.
        var pattern: String {
            switch self {
            case .message(let id): #"[{"sent":{"_0":{"id":\#(id)}}}]"#
            case .sender(let id): #"[{"sent":{"_0":{"sender":{"id":\#(id)}}}}]"#
            }
        }
    }
}
