import Foundation
import Logging
import PostgresNIO
import Synchronization
import TwitterCore
import TwitterRuntime

/// How several daemons on one database stay one service: every ordered write stores its events in
/// `commit_events` in its own transaction and notifies the channel; each daemon delivers that log to its observer
/// (the read model, the live streams) in id order, which is commit order, exactly once.
///
/// A daemon's own write is delivered as soon as it commits, after any other daemon's entries with smaller ids;
/// the others' arrive on a notification, and the heartbeat, four times a second, catches up whatever a missed
/// notification (a reconnect, a restart of the server) left behind. Nothing is lost or doubled because delivery
/// follows one cursor (`CommitCursor`), under one lock.
///
/// The heartbeat also keeps this daemon's row in `daemons` (what it has delivered, when it was last seen) and its
/// `ReadLease`: while the lease holds and every notified entry is delivered, the daemon is current and answers
/// from its caches with no read of the log; a revocation waits for every daemon seen lately to acknowledge it.
final class CommitFeed: Sendable {
    /// The log: `commit_events`, notifying `twitterd_commits`.
    let log = EventLog<CommitEvent>(channel: "twitterd_commits", subject: "commit")
    private let delivery = AsyncLock()
    private let state = Mutex(State())
    private let logger: Logger

    private struct State {
        var cursor = CommitCursor()
        var lease = ReadLease.notListening
        var observer: (any CommitObserving)?
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
        state.withLock { $0.cursor = CommitCursor(startingAt: newest) }
    }

    /// Sets the observer remote entries go to.
    func attach(_ observer: any CommitObserving) {
        state.withLock { $0.observer = observer }
    }

    /// Stores `events` in the open transaction and notifies the channel at its commit; returns the entry's id.
    /// An entry that withdraws access (`CommitEvent.withdrawsAccess`: a revocation, a block, …) is marked, so a
    /// heartbeat can tell in one statement whether one lies beyond what its daemon delivered.
    func record(_ events: [CommitEvent], in connection: PostgresConnection) async throws -> Int64 {
        let id = try await log.append(events, in: connection)
        state.withLock { $0.cursor.appended(id) }
        if events.contains(where: \.withdrawsAccess) {
            try await connection.run("UPDATE commit_events SET withdraws_access = true WHERE id = \(id)")
        }
        return id
    }

    /// The ordered write that appended this daemon's last entry ended: its entry delivered, or the write failed.
    func writeEnded() {
        state.withLock { $0.cursor.writeEnded() }
    }

    /// Whether this daemon knows every commit an answer may rest on without reading the log first: the lease
    /// holds (no revocation it has not applied can have been answered) and every entry notified so far is
    /// delivered (the others' tweets are cached).
    func isCurrent(at now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { $0.lease.isHeld(at: now) && $0.cursor.isCaughtUp }
    }

    /// Delivers this daemon's committed entry `id` with its `events` to `observer`, after every earlier entry
    /// not delivered yet. When the earlier entries cannot be read (the server went away right after the commit),
    /// the entry is left for the poll to deliver in its turn: the write stands, and order is kept.
    func deliver(
        _ id: Int64, events: [CommitEvent], to observer: any CommitObserving, reading store: PostgresStore
    )
        async
    {
        do {
            try await delivery.withLock {
                try await catchUp(reading: store, before: id)
                if state.withLock({ $0.cursor.deliver(id) }) { observer.committed(events) }
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
        var withdrawnElsewhere = false
        defer {
            // Another daemon waits for this acknowledgement before it answers: sent now, not at the next heartbeat.
            if withdrawnElsewhere { Task { try? await self.report(to: store) } }
        }
        while true {
            let after = state.withLock { $0.cursor.delivered }
            if let bound, after >= bound - 1 { return }
            let entries = try await log.entries(after: after, before: bound, reading: store, logger: logger)
            guard !entries.isEmpty else { return }
            for entry in entries {
                if entry.origin != origin, entry.events.contains(where: \.withdrawsAccess) { withdrawnElsewhere = true }
                let observer = state.withLock { state in
                    _ = state.cursor.deliver(entry.id)
                    return state.observer
                }
                guard !entry.events.isEmpty, let observer else { continue }
                if entry.origin == origin {
                    // This daemon's own entry, read before its writer delivered it (which it then skips); its
                    // revocations were acted on when they were made.
                    observer.committed(entry.events.filter { if case .account(.revoked) = $0 { false } else { true } })
                } else {
                    observer.committedElsewhere(entry.events)
                }
            }
        }
    }

    /// Listens for other daemons' commits until cancelled (`EventLog.follow`), sending the heartbeat on each
    /// tick of the poll.
    func follow(_ store: PostgresStore) async {
        await log.follow(
            store, logger: logger, every: ReadLease.heartbeatInterval,
            // A daemon that stopped leaves its row; ignored after a lease, deleted after an hour.
            alsoPrune: { try await $0.run("DELETE FROM daemons WHERE seen_at < now() - interval '1 hour'") }
        ) { wake in
            switch wake {
            case .listening:
                self.state.withLock { $0.lease = $0.lease.startedListening() }
            case .notified(let id):
                guard self.state.withLock({ $0.cursor.notify(id) }) else { return }
            case .stoppedListening:
                self.state.withLock { $0.lease = $0.lease.stoppedListening() }
                return
            case .tick:
                await self.heartbeat(store)
                return
            }
            do {
                try await self.catchUp(reading: store)
            } catch {
                self.logger.debug("catching up with the commit log failed", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Catches up, then reports what this daemon has delivered in its `daemons` row; renews the lease when no
    /// entry that withdraws access lies beyond that, from the moment before the catch-up began (`ReadLease`).
    func heartbeat(_ store: PostgresStore) async {
        let sentAt = ContinuousClock.now
        do {
            try await catchUp(reading: store)
            let current = try await report(to: store)
            state.withLock { $0.lease = current ? $0.lease.renewed(sentAt: sentAt) : $0.lease.lapsed() }
        } catch {
            state.withLock { $0.lease = $0.lease.lapsed() }
            logger.debug("the heartbeat failed", metadata: ["error": "\(error)"])
        }
    }

    /// Writes what this daemon has delivered, and now as when it was seen, into its `daemons` row; returns whether
    /// no entry that withdraws access lies beyond what it delivered (read in the same statement, so in the same
    /// snapshot).
    @discardableResult
    private func report(to store: PostgresStore) async throws -> Bool {
        let delivered = state.withLock { $0.cursor.delivered }
        return try await store.read { [origin] connection in
            try await connection.value(
                """
                WITH seen AS (
                    INSERT INTO daemons (origin, seen_at, applied) VALUES (\(origin), now(), \(delivered))
                    ON CONFLICT (origin) DO UPDATE
                        SET seen_at = now(), applied = greatest(daemons.applied, excluded.applied)
                )
                SELECT NOT EXISTS (SELECT 1 FROM commit_events WHERE id > \(delivered) AND withdraws_access)
                """, as: Bool.self) ?? false
        }
    }

    /// Returns once every other daemon seen within a lease has delivered entry `id`, or once a lease has passed
    /// since the call: a daemon that has not acknowledged by then holds no lease renewed before `id` was
    /// committed, so it reads the log before it serves a logged-in request. When the acknowledgements cannot be
    /// read (the server went away), it waits the lease out.
    func awaitAcknowledgements(of id: Int64, reading store: PostgresStore) async {
        let deadline = ContinuousClock.now + ReadLease.duration
        let (seconds, attoseconds) = ReadLease.duration.components
        let lease = Double(seconds) + Double(attoseconds) / 1e18
        while ContinuousClock.now < deadline, !Task.isCancelled {
            do {
                let waiting = try await store.read { [origin] connection in
                    try await connection.value(
                        """
                        SELECT count(*)::bigint FROM daemons
                        WHERE origin <> \(origin) AND applied < \(id)
                            AND seen_at > now() - make_interval(secs => \(lease))
                        """, as: Int64.self) ?? 0
                }
                if waiting == 0 { return }
                try await Task.sleep(for: .milliseconds(2))
            } catch {
                try? await Task.sleep(until: deadline)
            }
        }
        logger.warning(
            "a commit that withdraws access was not acknowledged by every daemon within a lease; theirs ran out",
            metadata: ["id": "\(id)"])
    }
}
