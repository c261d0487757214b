import Foundation

/// Wakes once a login's `expiresAt` has passed by the wall clock, and ends the login then, so a connection that
/// only listens is told at its expiry as a revocation would tell it, not kept streaming until its next request.
///
/// One task per login that expires; it sleeps at most `longestSleep` at a time and looks at the wall clock again
/// on waking, so a clock set forward or a machine resumed from suspend is noticed within that time.
final class LoginExpiryTimer: Sendable {
    private let task: Task<Void, Never>

    /// The longest single sleep before the wall clock is read again.
    static let longestSleep: TimeInterval = 3600

    private init(task: Task<Void, Never>) {
        self.task = task
    }

    /// Starts the timer: `expire` runs once `now()` has reached `deadline`, unless `cancel` came first.
    static func start(
        at deadline: Date, now: @escaping @Sendable () -> Date = { Date() },
        expire: @escaping @Sendable () -> Void
    ) -> LoginExpiryTimer {
        LoginExpiryTimer(
            task: Task {
                while true {
                    let remaining = deadline.timeIntervalSince(now())
                    guard remaining > 0 else { break }
                    do {
                        try await Task.sleep(for: .seconds(min(remaining, longestSleep)))
                    } catch {
                        return  // Cancelled: the login ended first.
                    }
                }
                guard !Task.isCancelled else { return }
                expire()
            })
    }

    /// Stops the timer: the login ended before it expired.
    func cancel() {
        task.cancel()
    }
}
