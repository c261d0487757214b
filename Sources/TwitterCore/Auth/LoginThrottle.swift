import Foundation
import Synchronization

/// Counts failed password and token guesses, and makes each attempt past the fifth wait.
///
/// Like a login form that stops accepting attempts: after `threshold` consecutive failures each further
/// attempt waits 1 s, 2 s, 4 s… up to 15 minutes, and no key takes more than `dailyLimit` failures a day.
/// The waits count per source, as the kernel names it: per local uid, and per account from that uid, so a
/// guesser is slowed down and the account's owner, on a uid of their own, is not locked out by someone else's
/// guesses. The account as a whole only has a generous daily ceiling (`accountDailyLimit`). The state lives in
/// the store, so a restart does not reset an attacker's count.
///
/// A guess is counted before its credentials are checked (`guarding`), under the key's lock, so concurrent guesses
/// cannot all pass the check before any failure is recorded; a success takes its own count back and forgives only
/// the (account, uid) pair, so a free login to one's own account does not wipe a spray over others. A uid is
/// named with its host (`host`): the same uid on two machines sharing a database is two people.
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

        /// Every guess from `uid` on `host` (the rows of host "" are those written before hosts were kept).
        public static func source(uid: UInt32, host: String = "") -> Key {
            Key(scope: .source, storageName: "\(hostPrefix(host))uid:\(uid)")
        }

        /// Guesses at `account` (a lowercased e-mail) from `uid` on `host`.
        public static func accountFromSource(_ account: String, uid: UInt32, host: String = "") -> Key {
            Key(scope: .accountFromSource, storageName: "account:\(account) \(hostPrefix(host))uid:\(uid)")
        }

        /// "host:ID " before a uid, nothing for host "": keys written before hosts were kept read as host "".
        static func hostPrefix(_ host: String) -> String {
            host.isEmpty ? "" : "host:\(host) "
        }

        /// Guesses at `account` from every uid.
        public static func account(_ account: String) -> Key {
            Key(scope: .account, storageName: "account:\(account)")
        }
    }

    private let store: any ThrottleStoring
    private let policy: Policy
    private let now: @Sendable () -> Date
    /// The identity of this daemon's machine, which names its uids (`HostIdentity`).
    public let host: String
    /// The guesses this throttle has counted and not yet judged, shared by its copies.
    private let inFlight = InFlightGuesses()

    /// Creates a throttle over `store` for the uids of `host`; `now` is injectable so tests can move time.
    public init(
        store: any ThrottleStoring, policy: Policy = Policy(), host: String = "",
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.policy = policy
        self.host = host
        self.now = now
    }

    /// The keys a guess counts against: the peer's uid on `host` (but root's: root reads the database and its keys
    /// anyway, and would otherwise be held up by its own scripts' mistakes) and, when the credentials name an
    /// account, that account from this uid and the account as a whole.
    public static func keys(account: String?, peer: PeerCredentials, host: String = "") -> [Key] {
        var keys = peer.userID == 0 ? [] : [Key.source(uid: peer.userID, host: host)]
        if let account {
            keys.append(.accountFromSource(account, uid: peer.userID, host: host))
            keys.append(.account(account))
        }
        return keys
    }

    /// The keys a guess from `peer`, a uid of this throttle's host, counts against.
    public func keys(account: String?, peer: PeerCredentials) -> [Key] {
        Self.keys(account: account, peer: peer, host: host)
    }

    /// Runs `guess`, which checks credentials and throws `.invalidCredentials` when they are wrong, counted as a
    /// failure before it runs (-32006 with the wait, and `guess` not run, when a key must wait).
    ///
    /// Counting first, under each key's lock, is what stops N concurrent guesses from all passing the check
    /// before any failure is recorded: at most the free allowance reach the hash. A success takes its own count
    /// back and forgives only its (account, uid) pair; an error that is no verdict on the credentials (a store
    /// failure, a cancellation) takes the count back too. A guess refused while others of its keys are in flight
    /// on this daemon waits for one of them to be judged and asks again (`InFlightGuesses`), so right logins at once
    /// from one uid are not refused for each other's sake.
    public func guarding<Result: Sendable>(_ keys: [Key], _ guess: () async throws -> Result) async throws -> Result {
        let names = keys.map(\.storageName)
        while true {
            await inFlight.turn.take()
            let verdicts = inFlight.verdicts
            do {
                try await check(keys)
                try await admit(keys)
                inFlight.enter(names)
                await inFlight.turn.give()
                break
            } catch let error as TwitterError where error.kind == .rateLimited {
                await inFlight.turn.give()
                guard await inFlight.waitForVerdict(of: names, since: verdicts) else { throw error }
            } catch {
                await inFlight.turn.give()
                throw error
            }
        }
        defer { inFlight.leave(names) }
        let result: Result
        do {
            result = try await guess()
        } catch let error as TwitterError where error.kind == .invalidCredentials {
            throw error
        } catch {
            // No verdict on the credentials: the guess is taken back, and the original error is what the caller
            // needs to hear, not a second failure of the store.
            try? await takeBack(keys)
            throw error
        }
        try await takeBack(keys)
        try await recordSuccess(keys)
        return result
    }

    /// Counts one guess against every key, each under its lock, refusing (-32006) without counting it when a key
    /// must wait; a key refused after others were counted takes theirs back.
    func admit(_ keys: [Key]) async throws {
        for (index, key) in keys.enumerated() {
            let refusal = WaitBox()
            let moment = now()
            try await store.updateThrottleState(for: key.storageName) { [self] state in
                if let state {
                    let wait = waitTime(state, of: key.scope, at: moment)
                    refusal.wait.withLock { $0 = wait }
                    if wait > 0 { return state }
                } else {
                    refusal.wait.withLock { $0 = 0 }
                }
                return counted(state, at: moment)
            }
            let wait = refusal.wait.withLock { $0 }
            if wait > 0 {
                try await takeBack(Array(keys[..<index]))
                throw TwitterError.rateLimited(retryAfter: Int(wait.rounded(.up)), "Too many failed logins")
            }
        }
    }

    /// Where `admit` learns, from inside the store's transaction, whether the key had to wait.
    private final class WaitBox: Sendable {
        let wait = Mutex<TimeInterval>(0)
    }

    /// Takes back one guess counted by `admit` from every key: it was no failure.
    func takeBack(_ keys: [Key]) async throws {
        let moment = now()
        for key in keys {
            try await store.updateThrottleState(for: key.storageName) { state in
                var next =
                    state ?? ThrottleState(failures: 0, lastFailureAt: moment, windowStart: moment, windowFailures: 0)
                next.failures = max(0, next.failures - 1)
                next.windowFailures = max(0, next.windowFailures - 1)
                return next
            }
        }
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
        for key in keys {
            try await store.updateThrottleState(for: key.storageName) { [self] state in counted(state, at: moment) }
        }
    }

    /// `state` with one more failure at `moment`, in a daily window that starts again once a day has passed.
    private func counted(_ state: ThrottleState?, at moment: Date) -> ThrottleState {
        var next = state ?? ThrottleState(failures: 0, lastFailureAt: moment, windowStart: moment, windowFailures: 0)
        if moment.timeIntervalSince(next.windowStart) >= policy.dailyWindow {
            next.windowStart = moment
            next.windowFailures = 0
        }
        // A success no longer clears a uid's count, so a day without a failure does: old typos do not keep a
        // person one failure from a wait for good.
        if moment.timeIntervalSince(next.lastFailureAt) >= policy.dailyWindow { next.failures = 0 }
        next.failures += 1
        next.windowFailures += 1
        next.lastFailureAt = moment
        return next
    }

    /// A success forgives only its own (account, uid) pair: the uid's count stands, or one free login to its own
    /// account every few guesses would wipe a spray over every other account; the account's daily ceiling keeps
    /// counting the day's failures from everywhere, so the owner's success does not reset what others guessed.
    public func recordSuccess(_ keys: [Key]) async throws {
        try await store.resetThrottleStates(for: keys.filter { $0.scope == .accountFromSource }.map(\.storageName))
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
