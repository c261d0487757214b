import TwitterCore

/// Taking deleted texts out of the log that delivers sends live. PostgreSQL keeps every send's events, sealed
/// text included, in `message_events` for an hour (`MessageFeed`): a deleted message's text must leave it in the
/// same transaction as it leaves `messages`, or a copy of the database would still hold it. SQLite keeps no such
/// log (its sends are delivered from memory), so there is nothing to purge.
enum MessageLogPurge {
    /// Deletes the log entries of the sends of `messages` ("id") or of every message of a sender ("sender").
    static func run(_ connection: any SQLConnection, sent match: Match) async throws {
        guard connection.dialect.logsMessageSends else { return }
        // The entry of a send is `[{"sent":{"_0":<StoredMessage>,"recipientIDs":[…]}}]` (`MessageEvent`'s
        // Codable form); containment finds it whatever else the message holds. A send's transaction logs one
        // entry of one event, so the whole entry goes.
        try await connection.run(
            "DELETE FROM message_events WHERE events::jsonb @> \(match.pattern)::jsonb")
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
