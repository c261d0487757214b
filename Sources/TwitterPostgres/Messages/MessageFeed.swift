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
    /// The log: `message_events`, notifying `twitterd_messages`.
    let log = EventLog<MessageEvent>(channel: "twitterd_messages", subject: "message")
    /// The advisory lock every send holds until its commit, so ids are given out in commit order ("tw-msgs").
    static let orderLock: Int64 = 0x7477_2d6d_7367_73

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
        let id = try await log.append(events, in: connection)
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
            let entries = try await log.entries(after: after, reading: store, logger: logger)
            guard !entries.isEmpty else { return }
            for entry in entries {
                let observer = state.withLock { state in
                    state.delivered = entry.id
                    return state.observer
                }
                if !entry.events.isEmpty { observer?.committed(entry.events, elsewhere: entry.origin != log.origin) }
            }
        }
    }

    private func catchUpLogging(_ store: PostgresStore) async {
        do {
            try await delivery.withLock {
                if state.withLock({ $0.delivered }) == nil {
                    // Where this daemon starts: what was sent before it is in the database, not news.
                    let newest = try await log.newest(reading: store)
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

    /// Listens for other daemons' sends until cancelled (`EventLog.follow`).
    private func follow(_ store: PostgresStore) async {
        await log.follow(store, logger: logger) { _ in await self.catchUpLogging(store) }
    }
}
