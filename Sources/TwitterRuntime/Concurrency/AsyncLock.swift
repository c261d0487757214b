import Synchronization

/// Mutual exclusion across suspension points: one body runs at a time, the others wait their turn in the order
/// they asked, without blocking a thread. How the PostgreSQL store keeps one daemon's ordered writes one after
/// another, so their events are reported in commit order.
public final class AsyncLock: Sendable {
    private struct State {
        var isHeld = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// An unheld lock.
    public init() {}

    /// Runs `body` holding the lock.
    public func withLock<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { continuation in
            let granted = state.withLock { state -> Bool in
                guard state.isHeld else {
                    state.isHeld = true
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    /// Hands the lock to the longest waiter, or frees it.
    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.isHeld = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
