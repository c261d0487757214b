import Foundation
import Synchronization
import Testing
import TwitterCore
import TwitterStore

/// The throttle's sequence: five free failures, then 1 s, 2 s, 4 s… capped at 15 minutes, 100 a day.
struct ThrottleTests {
    final class Clock: Sendable {
        let milliseconds = Atomic<Int>(1_800_000_000_000)
        var now: Date { Date(timeIntervalSince1970: TimeInterval(milliseconds.load(ordering: .relaxed)) / 1000) }
        func advance(seconds: Double) { milliseconds.add(Int(seconds * 1000), ordering: .relaxed) }
    }

    func retryAfter(_ throttle: LoginThrottle, _ keys: [String]) async throws -> Int? {
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
        let keys = ["account:a", "uid:1"]
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
        for _ in 0..<100 { try await throttle.recordFailure(["account:a"]) }
        let wait = try #require(try await retryAfter(throttle, ["account:a"]))
        #expect(wait == 86_400)
        clock.advance(seconds: 86_400)
        #expect(try await retryAfter(throttle, ["account:a"]) == nil)
    }
}
