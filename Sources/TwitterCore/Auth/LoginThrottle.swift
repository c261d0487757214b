import Foundation

/// Counts failed password and token guesses, and makes each attempt past the fifth wait.
///
/// Like a login form that stops accepting attempts: after `threshold` consecutive failures each further
/// attempt waits 1 s, 2 s, 4 s… up to 15 minutes, and no key takes more than `dailyLimit` failures a day.
/// The waits count per source, as the kernel names it: per local uid, and per account from that uid, so a
/// guesser is slowed down and the account's owner, on a uid of their own, is not locked out by someone else's
/// guesses. The account as a whole only has a generous daily ceiling (`accountDailyLimit`). The state lives in
/// the store, so a restart does not reset an attacker's count.
public struct LoginThrottle: Sendable {
    /// The numbers of the policy.
    public struct Policy: Sendable, Equatable {
        /// Failures allowed before attempts must wait.
        public var threshold = 5
        /// The first wait.
        public var baseDelay: TimeInterval = 1
        /// The longest wait.
        public var maximumDelay: TimeInterval = 15 * 60
        /// The most failures a uid, or an account from one uid, may take in `dailyWindow`.
        public var dailyLimit = 100
        /// The most failures an account may take in `dailyWindow` from every uid together.
        public var accountDailyLimit = 1000
        /// The window of the daily limits.
        public var dailyWindow: TimeInterval = 24 * 60 * 60

        /// The default policy.
        public init() {}
    }

    /// What one failure is counted against.
    public struct Key: Sendable, Hashable {
        /// Which count a key is.
        public enum Scope: Sendable, Hashable {
            /// Every guess from one local uid: waits and the daily limit.
            case source
            /// Guesses at one account from one local uid: waits and the daily limit.
            case accountFromSource
            /// Guesses at one account from anywhere: only the account's daily ceiling.
            case account
        }

        /// Which count it is.
        public var scope: Scope
        /// The name it is stored under.
        public var storageName: String

        /// Every guess from `uid`.
        public static func source(uid: UInt32) -> Key {
            Key(scope: .source, storageName: "uid:\(uid)")
        }

        /// Guesses at `account` (a lowercased e-mail) from `uid`.
        public static func accountFromSource(_ account: String, uid: UInt32) -> Key {
            Key(scope: .accountFromSource, storageName: "account:\(account) uid:\(uid)")
        }

        /// Guesses at `account` from every uid.
        public static func account(_ account: String) -> Key {
            Key(scope: .account, storageName: "account:\(account)")
        }
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

    /// The keys a guess counts against: the peer's uid and, when the credentials name an account, that account
    /// from this uid and the account as a whole.
    public static func keys(account: String?, peer: PeerCredentials) -> [Key] {
        var keys = [Key.source(uid: peer.userID)]
        if let account {
            keys.append(.accountFromSource(account, uid: peer.userID))
            keys.append(.account(account))
        }
        return keys
    }

    /// Throws `.rateLimited` with the seconds to wait when any key must wait.
    public func check(_ keys: [Key]) async throws {
        let moment = now()
        var wait: TimeInterval = 0
        for key in keys {
            guard let state = try await store.throttleState(for: key.storageName) else { continue }
            wait = max(wait, waitTime(state, of: key.scope, at: moment))
        }
        if wait > 0 {
            throw TwitterError.rateLimited(retryAfter: Int(wait.rounded(.up)), "Too many failed logins")
        }
    }

    /// Counts one failure against every key.
    public func recordFailure(_ keys: [Key]) async throws {
        let moment = now()
        let window = policy.dailyWindow
        for key in keys {
            try await store.updateThrottleState(for: key.storageName) { state in
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

    /// A success clears the count of the keys of its own source; the account's daily ceiling keeps counting the
    /// day's failures from everywhere, so the owner's success does not reset what others guessed.
    public func recordSuccess(_ keys: [Key]) async throws {
        try await store.resetThrottleStates(for: keys.filter { $0.scope != .account }.map(\.storageName))
    }

    /// How long from `moment` until `state`, the count of a key of `scope`, allows another attempt.
    func waitTime(_ state: ThrottleState, of scope: Key.Scope, at moment: Date) -> TimeInterval {
        var until = Date.distantPast
        if scope != .account, state.failures >= policy.threshold {
            let exponent = Double(min(state.failures - policy.threshold, 30))
            let delay = min(policy.baseDelay * pow(2, exponent), policy.maximumDelay)
            until = state.lastFailureAt.addingTimeInterval(delay)
        }
        if state.windowFailures >= (scope == .account ? policy.accountDailyLimit : policy.dailyLimit) {
            until = max(until, state.windowStart.addingTimeInterval(policy.dailyWindow))
        }
        return max(0, until.timeIntervalSince(moment))
    }
}

// @MemberwiseInit
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
}
