import Foundation
import Synchronization
import Testing
import TwitterCore
import TwitterSQL
import TwitterStore

/// The throttle's sequence: five free failures, then 1 s, 2 s, 4 s… capped at 15 minutes, 100 a day.
struct ThrottleTests {
    final class Clock: Sendable {
        let milliseconds = Atomic<Int>(1_800_000_000_000)
        var now: Date { Date(timeIntervalSince1970: TimeInterval(milliseconds.load(ordering: .relaxed)) / 1000) }
        func advance(seconds: Double) { milliseconds.add(Int(seconds * 1000), ordering: .relaxed) }
    }

    func retryAfter(_ throttle: LoginThrottle, _ keys: [LoginThrottle.Key]) async throws -> Int? {
        do {
            try await throttle.check(keys)
            return nil
        } catch let error as TwitterError where error.kind == .rateLimited {
            guard case .int(let seconds)? = error.details["retryAfter"] else { return -1 }
            return seconds
        }
    }

    @Test func waitsDoubleAfterTheFifthFailureAndASuccessResets() async throws {
        let clock = Clock()
        let throttle = LoginThrottle(store: ThrottleStore(database: try AppDatabase.inMemory()), now: { clock.now })
        let keys = LoginThrottle.keys(account: "a", peer: PeerCredentials(userID: 1, groupID: 1, processID: 1))
        for _ in 0..<5 {
            #expect(try await retryAfter(throttle, keys) == nil)
            try await throttle.recordFailure(keys)
        }
        var expected = 1
        for _ in 0..<12 {
            #expect(try await retryAfter(throttle, keys) == expected)
            clock.advance(seconds: Double(expected))
            #expect(try await retryAfter(throttle, keys) == nil)
            try await throttle.recordFailure(keys)
            expected = min(expected * 2, 900)
        }
        #expect(try await retryAfter(throttle, keys) == 900)
        clock.advance(seconds: 900)
        try await throttle.recordSuccess(keys)
        #expect(try await retryAfter(throttle, keys) == nil)
    }

    @Test func noKeyTakesMoreThanAHundredFailuresADay() async throws {
        let clock = Clock()
        let policy = {
            var policy = LoginThrottle.Policy(); policy.threshold = 1000; return policy
        }()
        let throttle = LoginThrottle(
            store: ThrottleStore(database: try AppDatabase.inMemory()), policy: policy, now: { clock.now }
        )
        let key = LoginThrottle.Key.accountFromSource("a", uid: 1)
        for _ in 0..<100 { try await throttle.recordFailure([key]) }
        let wait = try #require(try await retryAfter(throttle, [key]))
        #expect(wait == 86_400)
        clock.advance(seconds: 86_400)
        #expect(try await retryAfter(throttle, [key]) == nil)
    }

    /// Another local user's guesses slow that user down, not the account's owner on a uid of their own; only the
    /// account's generous daily ceiling counts every uid, and the owner's success does not wipe it.
    @Test func guessesFromAnotherUIDDoNotLockTheOwnerOut() async throws {
        let clock = Clock()
        let throttle = LoginThrottle(store: ThrottleStore(database: try AppDatabase.inMemory()), now: { clock.now })
        let attacker = LoginThrottle.keys(account: "victim@example.com", peer: Self.peer(65534))
        let owner = LoginThrottle.keys(account: "victim@example.com", peer: Self.peer(1000))
        for _ in 0..<10 { try await throttle.recordFailure(attacker) }
        #expect(try await retryAfter(throttle, attacker) == 32)
        #expect(try await retryAfter(throttle, owner) == nil)
        try await throttle.recordSuccess(owner)
        #expect(try await retryAfter(throttle, attacker) == 32, "the owner's success clears only its own count")

        var policy = LoginThrottle.Policy()
        policy.threshold = 10_000
        let ceiling = LoginThrottle(
            store: ThrottleStore(database: try AppDatabase.inMemory()), policy: policy, now: { clock.now })
        for uid in 0..<10 {
            let keys = LoginThrottle.keys(account: "victim@example.com", peer: Self.peer(UInt32(2000 + uid)))
            for _ in 0..<100 { try await ceiling.recordFailure(keys) }
        }
        #expect(try await retryAfter(ceiling, owner) == 86_400, "a thousand failures a day close the account")
    }

    static func peer(_ uid: UInt32) -> PeerCredentials {
        PeerCredentials(userID: uid, groupID: uid, processID: 1)
    }
}
