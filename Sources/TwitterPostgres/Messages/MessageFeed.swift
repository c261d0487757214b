import Foundation
import Logging
import PostgresNIO
import Synchronization
import TwitterCore

/// How the daemons on one database deliver each other's messages live, as `CommitFeed` does for tweets: every
/// send stores its events in `message_events` in its transaction, under the message order lock, and notifies the
/// channel; each daemon delivers that log to its observer in id order, which is commit order, exactly once.
///
/// A daemon delivers its own send after the commit by catching up to it; the others' arrive on a notification,
/// and a poll every second catches up what a missed notification left behind. One cursor, `delivered`, under one
/// lock: nothing lost or doubled.
final class MessageFeed: Sendable {
    /// The channel sends notify.
    static let channel = "twitterd_messages"
    /// How long entries are kept for daemons that fall behind.
    static let retention = "1 hour"
    /// The advisory lock every send holds until its commit, so ids are given out in commit order ("tw-msgs").
    static let orderLock: Int64 = 0x7477_2d6d_7367_73

    /// This daemon, as `message_events.origin`.
    let origin = UUID().uuidString
    private let delivery = AsyncLock()
    private let state = Mutex(State())
    private let logger: Logger

    private struct State {
        /// The last entry delivered; nil until the feed knows where it starts.
        var delivered: Int64?
        var observer: (any MessageCommitObserving)?
        var follower: Task<Void, Never>?
        /// This daemon's entries written and not yet delivered: where the feed starts must not pass them.
        var ownPending: Set<Int64> = []

        /// Where delivery starts when the log's end is `newest`: before any of this daemon's own entries.
        func start(newest: Int64) -> Int64 {
            min(newest, (ownPending.min() ?? Int64.max) - 1)
        }
    }

    init(logger: Logger) {
        self.logger = logger
    }

    /// Sets the observer and starts following the other daemons' sends on `store`.
    func attach(_ observer: any MessageCommitObserving, following store: PostgresStore) {
        state.withLock { state in
            state.observer = observer
            if state.follower == nil { state.follower = Task { [self] in await follow(store) } }
        }
    }

    /// Stops following.
    func stop() async {
        guard let follower = state.withLock({ $0.follower }) else { return }
        follower.cancel()
        await follower.value
    }

    /// Stores `events` in the open transaction and notifies the channel at its commit; returns the entry's id.
    func record(_ events: [MessageEvent], in connection: PostgresConnection) async throws -> Int64 {
        let json = String(decoding: try JSONEncoder().encode(events), as: UTF8.self)
        guard
            let id = try await connection.value(
                "INSERT INTO message_events (origin, events) VALUES (\(origin), \(json)) RETURNING id", as: Int64.self)
        else { throw TwitterError(.internal, "The message log entry just written has no id") }
        try await connection.run("SELECT pg_notify(\(Self.channel), \(String(id)))")
        state.withLock { _ = $0.ownPending.insert(id) }
        return id
    }

    /// Delivers this daemon's committed entry `id`, after every earlier entry not delivered yet.
    func deliver(upTo id: Int64, reading store: PostgresStore) async {
        do {
            try await delivery.withLock {
                state.withLock { state in
                    if state.delivered == nil { state.delivered = state.start(newest: id - 1) }
                }
                try await catchUp(reading: store)
                state.withLock { _ = $0.ownPending.remove(id) }
            }
        } catch {
            logger.warning(
                "a message's delivery waits for the message log to be readable",
                metadata: ["id": "\(id)", "error": "\(error)"])
        }
    }

    /// Reads and delivers the entries after `delivered`; the caller holds `delivery`.
    private func catchUp(reading store: PostgresStore) async throws {
        while true {
            guard let after = state.withLock({ $0.delivered }) else { return }
            let rows = try await store.read { connection in
                try await connection.rows(
                    "SELECT id, origin, events FROM message_events WHERE id > \(after) ORDER BY id LIMIT 500"
                ).map {
                    (
                        try $0.column("id", as: Int64.self), try $0.column("origin", as: String.self),
                        try $0.column("events", as: String.self)
                    )
                }
            }
            guard !rows.isEmpty else { return }
            for (id, entryOrigin, json) in rows {
                let events: [MessageEvent]
                do {
                    events = try JSONDecoder().decode([MessageEvent].self, from: Data(json.utf8))
                } catch {
                    logger.error(
                        "a message log entry cannot be read; skipped", metadata: ["id": "\(id)", "error": "\(error)"])
                    events = []
                }
                let observer = state.withLock { state in
                    state.delivered = id
                    return state.observer
                }
                if !events.isEmpty { observer?.committed(events, elsewhere: entryOrigin != origin) }
            }
        }
    }

    private func catchUpLogging(_ store: PostgresStore) async {
        do {
            try await delivery.withLock {
                if state.withLock({ $0.delivered }) == nil {
                    // Where this daemon starts: what was sent before it is in the database, not news.
                    let newest = try await store.read { connection in
                        try await connection.value(
                            "SELECT coalesce(max(id), 0) FROM message_events", as: Int64.self) ?? 0
                    }
                    state.withLock { state in
                        if state.delivered == nil { state.delivered = state.start(newest: newest) }
                    }
                }
                try await catchUp(reading: store)
            }
        } catch {
            logger.debug("catching up with the message log failed", metadata: ["error": "\(error)"])
        }
    }

    /// Listens for other daemons' sends until cancelled, catching up on each notification and every second.
    private func follow(_ store: PostgresStore) async {
        let poller = Task {
            var ticks = 0
            while !Task.isCancelled {
                await catchUpLogging(store)
                try? await Task.sleep(for: .seconds(1))
                ticks += 1
                if ticks % 300 == 0 {
                    _ = try? await store.transaction { connection in
                        try await connection.run(
                            "DELETE FROM message_events WHERE created_at < now() - \(Self.retention)::interval")
                    }
                }
            }
        }
        defer { poller.cancel() }
        while !Task.isCancelled {
            do {
                try await store.client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        await self.catchUpLogging(store)
                        for try await _ in notifications { await self.catchUpLogging(store) }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning(
                    "listening for other daemons' messages failed; retrying", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
