import Foundation

/// Counts failed logins per account and per local user, and makes each attempt past the fifth wait.
///
/// Like a login form that stops accepting attempts: after `threshold` consecutive failures each further
/// attempt waits 1 s, 2 s, 4 s… up to 15 minutes, and no key takes more than `dailyLimit` failures a day.
/// The state lives in the store, so a restart does not reset an attacker's count.
public struct LoginThrottle: Sendable {
    /// The numbers of the policy.
    public struct Policy: Sendable, Equatable {
        /// Failures allowed before attempts must wait.
        public var threshold = 5
        /// The first wait.
        public var baseDelay: TimeInterval = 1
        /// The longest wait.
        public var maximumDelay: TimeInterval = 15 * 60
        /// The most failures a key may take in `dailyWindow`.
        public var dailyLimit = 100
        /// The window of the daily limit.
        public var dailyWindow: TimeInterval = 24 * 60 * 60

        /// The default policy.
        public init() {}
    }

    private let store: any ThrottleStoring
    private let policy: Policy
    private let now: @Sendable () -> Date

    /// Creates a throttle over `store`; `now` is injectable so tests can move time.
    public init(store: any ThrottleStoring, policy: Policy = Policy(), now: @escaping @Sendable () -> Date = Date.init)
    {
        self.store = store
        self.policy = policy
        self.now = now
    }

    /// The keys a login counts against: the account (if the credentials name one) and the peer's uid.
    public static func keys(account: String?, peer: PeerCredentials) -> [String] {
        var keys = ["uid:\(peer.userID)"]
        if let account { keys.append("account:\(account)") }
        return keys
    }

    /// Throws `.rateLimited` with the seconds to wait when any key must wait.
    public func check(_ keys: [String]) async throws {
        let moment = now()
        var wait: TimeInterval = 0
        for key in keys {
            guard let state = try await store.throttleState(for: key) else { continue }
            wait = max(wait, waitTime(state, at: moment))
        }
        if wait > 0 {
            throw TwitterError.rateLimited(retryAfter: Int(wait.rounded(.up)), "Too many failed logins")
        }
    }

    /// Counts one failure against every key.
    public func recordFailure(_ keys: [String]) async throws {
        let moment = now()
        let window = policy.dailyWindow
        for key in keys {
            try await store.updateThrottleState(for: key) { state in
                var next =
                    state ?? ThrottleState(failures: 0, lastFailureAt: moment, windowStart: moment, windowFailures: 0)
                if moment.timeIntervalSince(next.windowStart) >= window {
                    next.windowStart = moment
                    next.windowFailures = 0
                }
                next.failures += 1
                next.windowFailures += 1
                next.lastFailureAt = moment
                return next
            }
        }
    }

    /// A success clears every key's count.
    public func recordSuccess(_ keys: [String]) async throws {
        try await store.resetThrottleStates(for: keys)
    }

    /// How long from `moment` until `state` allows another attempt.
    func waitTime(_ state: ThrottleState, at moment: Date) -> TimeInterval {
        var until = Date.distantPast
        if state.failures >= policy.threshold {
            let exponent = Double(min(state.failures - policy.threshold, 30))
            let delay = min(policy.baseDelay * pow(2, exponent), policy.maximumDelay)
            until = state.lastFailureAt.addingTimeInterval(delay)
        }
        if state.windowFailures >= policy.dailyLimit {
            until = max(until, state.windowStart.addingTimeInterval(policy.dailyWindow))
        }
        return max(0, until.timeIntervalSince(moment))
    }
}

/// The stored count of one throttle key.
public struct ThrottleState: Sendable, Equatable {
    /// Consecutive failures since the last success.
    public var failures: Int
    /// When the last failure happened.
    public var lastFailureAt: Date
    /// When the current daily window began.
    public var windowStart: Date
    /// Failures within the current daily window.
    public var windowFailures: Int

    /// Creates a state.
    public init(failures: Int, lastFailureAt: Date, windowStart: Date, windowFailures: Int) {
        self.failures = failures
        self.lastFailureAt = lastFailureAt
        self.windowStart = windowStart
        self.windowFailures = windowFailures
    }
}
