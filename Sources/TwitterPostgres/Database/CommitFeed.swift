import Foundation
import Logging
import PostgresNIO
import Synchronization
import TwitterCore

/// How several daemons on one database stay one service: every ordered write stores its events in
/// `commit_events` in its own transaction and notifies the channel; each daemon delivers that log to its observer
/// (the read model, the live streams) in id order, which is commit order, exactly once.
///
/// A daemon's own write is delivered as soon as it commits, after any other daemon's entries with smaller ids;
/// the others' arrive on a notification, and a poll every second catches up whatever a missed notification
/// (a reconnect, a restart of the server) left behind. Nothing is lost or doubled because delivery follows one
/// cursor, `delivered`, under one lock.
final class CommitFeed: Sendable {
    /// The log: `commit_events`, notifying `twitterd_commits`.
    let log = EventLog<TweetEvent>(channel: "twitterd_commits", subject: "commit")
    private let delivery = AsyncLock()
    private let state = Mutex(State())
    private let logger: Logger

    private struct State {
        var delivered: Int64 = 0
        var observer: (any TweetCommitObserving)?
        /// Catch-ups begun so far, and the number of the last one that read the log to its end.
        var catchUpsBegun = 0
        var lastCatchUpFinished = 0
    }

    init(logger: Logger) {
        self.logger = logger
    }

    /// This daemon, as `commit_events.origin`.
    var origin: String { log.origin }

    /// Starts at the log's end: what was committed before this daemon opened the database is in the database.
    func start(at newest: Int64) {
        state.withLock { $0.delivered = newest }
    }

    /// Sets the observer remote entries go to.
    func attach(_ observer: any TweetCommitObserving) {
        state.withLock { $0.observer = observer }
    }

    /// Stores `events` in the open transaction and notifies the channel at its commit; returns the entry's id.
    func record(_ events: [TweetEvent], in connection: PostgresConnection) async throws -> Int64 {
        try await log.append(events, in: connection)
    }

    /// Delivers this daemon's committed entry `id` with its `events` to `observer`, after every earlier entry
    /// not delivered yet. When the earlier entries cannot be read (the server went away right after the commit),
    /// the entry is left for the poll to deliver in its turn: the write stands, and order is kept.
    func deliver(_ id: Int64, events: [TweetEvent], to observer: any TweetCommitObserving, reading store: PostgresStore)
        async
    {
        do {
            try await delivery.withLock {
                try await catchUp(reading: store, before: id)
                let isNew = state.withLock { state -> Bool in
                    guard id > state.delivered else { return false }
                    state.delivered = id
                    return true
                }
                if isNew { observer.committed(events) }
            }
        } catch {
            logger.warning(
                "a commit's events wait for the commit log to be readable",
                metadata: ["id": "\(id)", "error": "\(error)"])
        }
    }

    /// Delivers every entry committed before this call, and any after it, in order.
    ///
    /// Coalesced: a catch-up that began reading after this call was made has read everything committed before
    /// it, so a caller who finds one finished when it gets the lock returns at once. Every page a daemon
    /// sharing the database serves waits for a catch-up (read-your-writes across daemons); one at a time, each
    /// a round trip, they bounded home pages on PostgreSQL at about 2,700/s with nothing to catch up
    /// (BENCHMARKS.md), while the pages queued behind one catch-up need only the next.
    func catchUp(reading store: PostgresStore) async throws {
        let askedAfter = state.withLock { $0.catchUpsBegun }
        try await delivery.withLock {
            let number = state.withLock { state -> Int? in
                guard state.lastCatchUpFinished <= askedAfter else { return nil }
                state.catchUpsBegun += 1
                return state.catchUpsBegun
            }
            guard let number else { return }
            try await catchUp(reading: store, before: nil)
            state.withLock { $0.lastCatchUpFinished = number }
        }
    }

    /// Reads and delivers entries after `delivered` (and before `bound`, when given); the caller holds `delivery`.
    private func catchUp(reading store: PostgresStore, before bound: Int64?) async throws {
        while true {
            let after = state.withLock { $0.delivered }
            if let bound, after >= bound - 1 { return }
            let entries = try await log.entries(after: after, before: bound, reading: store, logger: logger)
            guard !entries.isEmpty else { return }
            for entry in entries {
                let observer = state.withLock { state in
                    state.delivered = entry.id
                    return state.observer
                }
                guard !entry.events.isEmpty, let observer else { continue }
                if entry.origin == origin {
                    // This daemon's own entry, read before its writer delivered it (which it then skips); its
                    // revocations were acted on when they were made.
                    observer.committed(entry.events.filter { if case .revoked = $0 { false } else { true } })
                } else {
                    observer.committedElsewhere(entry.events)
                }
            }
        }
    }

    /// Listens for other daemons' commits until cancelled (`EventLog.follow`).
    func follow(_ store: PostgresStore) async {
        await log.follow(store, logger: logger) {
            do {
                try await self.catchUp(reading: store)
            } catch {
                self.logger.debug("catching up with the commit log failed", metadata: ["error": "\(error)"])
            }
        }
    }
}
