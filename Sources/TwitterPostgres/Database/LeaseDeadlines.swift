import Synchronization

/// The calls waiting for a pooled connection, and when each gave up: postgres-nio 1.33's pool has no lease timeout
/// of its own, and while the server is away a call must be answered -32008 within `timeout` rather than wait for it
/// to come back. One watcher per store looks at the waiting calls four times per timeout and cancels those that
/// have waited too long; before, each call raced a timer task of its own.
///
/// Each call's lease goes `reserved` → `waiting` (it has asked the pool) → `leased` (the pool handed it a
/// connection: it runs to its end, however long its queries take) or `waiting` → `expired` (cancelled by the
/// watcher; the call answers -32008). The clock starts when the call asks the pool, not when it was made: a call
/// still queued for a thread of the cooperative pool has not waited for a connection (counting that time made
/// calls expire under a busy machine that the pool would have served).
final class LeaseDeadlines: Sendable {
    /// Where one call's lease is.
    enum Lease: Equatable {
        /// Made, not yet asking the pool.
        case reserved
        /// Waiting for a connection since `since`.
        case waiting(since: ContinuousClock.Instant)
        /// Holding one: no deadline applies any more.
        case leased
        /// Given up on by the watcher.
        case expired
    }

    private struct Call {
        var lease: Lease
        var cancel: (@Sendable () -> Void)?
    }

    let timeout: Duration
    private let calls = Mutex<(next: Int, byID: [Int: Call])>((0, [:]))

    init(timeout: Duration) {
        self.timeout = timeout
    }

    /// A new call, not yet asking the pool; `arm` gives it the way to cancel it, `asking` starts its clock.
    func reserve() -> Int {
        calls.withLock { calls in
            calls.next += 1
            calls.byID[calls.next] = Call(lease: .reserved, cancel: nil)
            return calls.next
        }
    }

    /// Call `id` asks the pool for a connection from `now`.
    func asking(_ id: Int, at now: ContinuousClock.Instant = .now) {
        calls.withLock { calls in
            guard var call = calls.byID[id], call.lease == .reserved else { return }
            call.lease = .waiting(since: now)
            calls.byID[id] = call
        }
    }

    /// How the watcher cancels call `id`; cancels it at once if it expired before it was armed.
    func arm(_ id: Int, cancel: @escaping @Sendable () -> Void) {
        let expiredAlready = calls.withLock { calls -> Bool in
            guard var call = calls.byID[id] else { return false }
            if call.lease == .expired { return true }
            call.cancel = cancel
            calls.byID[id] = call
            return false
        }
        if expiredAlready { cancel() }
    }

    /// Call `id` holds a connection; false when the watcher had given up on it already.
    @discardableResult
    func leased(_ id: Int) -> Bool {
        calls.withLock { calls in
            guard var call = calls.byID[id], call.lease != .expired else { return false }
            call.lease = .leased
            call.cancel = nil
            calls.byID[id] = call
            return true
        }
    }

    /// Call `id` is over; returns whether the watcher had given up on it.
    @discardableResult
    func end(_ id: Int) -> Bool {
        calls.withLock { calls in calls.byID.removeValue(forKey: id)?.lease == .expired }
    }

    /// The lease of call `id`, nil once it ended.
    func lease(of id: Int) -> Lease? {
        calls.withLock { $0.byID[id]?.lease }
    }

    /// Gives up on every call that has waited `timeout` or longer at `now`, and cancels it; returns how many.
    @discardableResult
    func expire(at now: ContinuousClock.Instant = .now) -> Int {
        let cancels = calls.withLock { calls -> [@Sendable () -> Void] in
            var cancels: [@Sendable () -> Void] = []
            for (id, call) in calls.byID {
                guard case .waiting(let since) = call.lease, now - since >= timeout else { continue }
                calls.byID[id] = Call(lease: .expired, cancel: nil)
                if let cancel = call.cancel { cancels.append(cancel) }
            }
            return cancels
        }
        for cancel in cancels { cancel() }
        return cancels.count
    }

    /// Looks four times per timeout until cancelled.
    func watch() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: timeout / 4)
            expire()
        }
    }
}
