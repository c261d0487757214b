import Foundation
import Logging
import PostgresNIO
import TwitterCore
import TwitterSQL

/// The log table that the daemons on a database append events to and read back in id order: the one commit log
/// (`commit_events`, which `CommitFeed` delivers), of tweets, relations, accounts and messages alike. Each row is
/// one transaction's events as JSON, with the daemon that wrote it; appending notifies `channel` at the commit.
///
/// Here: the row's shape, the append with its notification, the read of a page of entries, pruning, and the
/// follow loop (LISTEN, a poll every `interval`, pruning every five minutes). Where delivery starts and what a
/// daemon does with its own entries are the feed's.
struct EventLog<Event: LoggedEvent>: Sendable {
    /// One entry: its id (commit order), the daemon that wrote it, and its events (empty when unreadable).
    struct Entry: Sendable {
        var id: Int64
        var origin: String
        var events: [Event]
    }

    /// The table, `commit_events`.
    var table: String { Event.logTable }
    /// The channel appends notify.
    let channel: String
    /// What the entries are, for log lines ("commit").
    let subject: String
    /// This daemon, as the entries' `origin`.
    let origin = UUID().uuidString
    /// How long entries are kept for daemons that fall behind.
    static var retention: String { "1 hour" }

    /// Stores `events` in the open transaction and notifies the channel at its commit; returns the entry's id.
    func append(_ events: [Event], in connection: PostgresConnection) async throws -> Int64 {
        let json = try Event.logJSON(events)
        // The row and its notification in one statement: one round trip fewer in every ordered write.
        guard
            let id = try await PostgresSQLConnection(connection: connection).value(
                SQLQuery(EventLogAppend<Event>.self, origin, json, channel), as: Int64.self)
        else { throw TwitterError(.internal, "The \(subject) log entry just written has no id") }
        return id
    }

    /// The id of the newest entry, 0 when there is none.
    func newest(reading store: PostgresStore) async throws -> Int64 {
        try await store.read { connection in
            try await connection.value("SELECT coalesce(max(id), 0) FROM \(unescaped: table)", as: Int64.self) ?? 0
        }
    }

    /// Up to 500 entries after `after` (and before `bound`, when given), in id order. An entry that cannot be
    /// decoded (written by a daemon of another version) comes with no events, so the reader moves past it
    /// instead of stopping there for good.
    func entries(after: Int64, before bound: Int64? = nil, reading store: PostgresStore, logger: Logger)
        async throws -> [Entry]
    {
        let limit = bound ?? Int64.max
        let rows = try await store.read { connection in
            try await connection.rows(EventLogPage<Event>(after: after, before: limit))
        }
        return rows.map { id, origin, json in
            do {
                return Entry(
                    id: id, origin: origin, events: try JSONDecoder().decode([Event].self, from: Data(json.utf8)))
            } catch {
                logger.error(
                    "a \(subject) log entry cannot be read; skipped", metadata: ["id": "\(id)", "error": "\(error)"])
                return Entry(id: id, origin: origin, events: [])
            }
        }
    }

    /// Why a follower wakes.
    enum Wake: Sendable {
        /// LISTEN took effect: entries committed before it were not notified.
        case listening
        /// An entry was committed, its id the notification's payload (nil when that is unreadable).
        case notified(Int64?)
        /// The poll's tick, every `interval`, listening or not.
        case tick
        /// The LISTEN connection was lost; it is tried again each second.
        case stoppedListening
    }

    /// Listens for other daemons' entries until cancelled, waking `wake` on each notification, when LISTEN takes
    /// effect or is lost, and every `interval`; a lost connection is retried each second. Prunes entries older
    /// than `retention` every five minutes, with whatever else `alsoPrune` deletes in the same transaction.
    func follow(
        _ store: PostgresStore, logger: Logger, every interval: Duration = .seconds(1),
        alsoPrune: (@Sendable (PostgresConnection) async throws -> Void)? = nil,
        wake: @escaping @Sendable (Wake) async -> Void
    ) async {
        let ticksBetweenPrunes = max(1, Int(Duration.seconds(300) / interval))
        let poller = Task {
            var ticks = 0
            while !Task.isCancelled {
                await wake(.tick)
                try? await Task.sleep(for: interval)
                ticks += 1
                if ticks % ticksBetweenPrunes == 0 { await prune(store, alsoPrune: alsoPrune) }
            }
        }
        defer { poller.cancel() }
        while !Task.isCancelled {
            do {
                try await store.client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        await wake(.listening)
                        for try await notification in notifications {
                            await wake(.notified(Int64(notification.payload)))
                        }
                    }
                }
            } catch {
                if !Task.isCancelled {
                    logger.warning(
                        "listening for other daemons' \(subject)s failed; retrying", metadata: ["error": "\(error)"])
                }
            }
            await wake(.stoppedListening)
            if Task.isCancelled { return }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    private func prune(
        _ store: PostgresStore, alsoPrune: (@Sendable (PostgresConnection) async throws -> Void)?
    ) async {
        _ = try? await store.transaction { connection in
            try await connection.run(
                "DELETE FROM \(unescaped: table) WHERE created_at < now() - \(Self.retention)::interval")
            try await alsoPrune?(connection)
        }
    }
}
