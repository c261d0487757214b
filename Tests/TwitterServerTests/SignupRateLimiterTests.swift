import Foundation
import Testing
import TwitterCore
import TwitterSQL
import TwitterSQLite

@testable import TwitterServer

/// Signups per local user (uid), on a clock the test moves.
struct SignupRateLimiterTests {
    typealias MovedClock = WriteRateLimiterTests.MovedClock

    /// The seconds a refused signup says to wait; nil when it was allowed.
    static func retryAfter(_ limiter: SignupRateLimiter, by uid: UInt32) -> Int? {
        do {
            try limiter.take(by: uid)
            return nil
        } catch {
            guard error.kind == .rateLimited, case .int(let seconds) = error.details["retryAfter"] else {
                Issue.record("an unexpected error: \(error)")
                return nil
            }
            return seconds
        }
    }

    @Test func eachUIDHasItsOwnBucketAndRootIsNeverRefused() {
        let clock = MovedClock()
        let limiter = SignupRateLimiter(limit: RateLimit(count: 2, period: 3600), store: nil, clock: clock.read)
        #expect(Self.retryAfter(limiter, by: 1000) == nil)
        #expect(Self.retryAfter(limiter, by: 1000) == nil)
        #expect(Self.retryAfter(limiter, by: 1000) == 1800)
        #expect(Self.retryAfter(limiter, by: 1001) == nil, "another uid has its own bucket")
        for _ in 0..<50 { #expect(Self.retryAfter(limiter, by: 0) == nil, "root makes accounts for others") }
        clock.move(by: 1800)
        #expect(Self.retryAfter(limiter, by: 1000) == nil, "one came back after 30 minutes")
        #expect(Self.retryAfter(limiter, by: 1000) == 1800)
    }

    @Test func aSignupThatMadeNoAccountIsGivenBack() {
        let clock = MovedClock()
        let limiter = SignupRateLimiter(limit: RateLimit(count: 1, period: 60), store: nil, clock: clock.read)
        #expect(Self.retryAfter(limiter, by: 1000) == nil)
        limiter.giveBack(by: 1000)
        #expect(Self.retryAfter(limiter, by: 1000) == nil)
        #expect(Self.retryAfter(limiter, by: 1000) == 60)
        limiter.giveBack(by: 1000)
        limiter.giveBack(by: 1000)
        #expect(Self.retryAfter(limiter, by: 1000) == nil)
        #expect(Self.retryAfter(limiter, by: 1000) == 60, "giving back never fills past the count")
    }

    @Test func bucketsSurviveARestartThroughTheStore() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("signups-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try AppDatabase.open(path: path)
        let clock = MovedClock()
        let limit = RateLimit(count: 2, period: 3600)
        let first = SignupRateLimiter(limit: limit, store: RateBucketStore(database: database), clock: clock.read)
        try await first.load()
        #expect(Self.retryAfter(first, by: 65534) == nil)
        #expect(Self.retryAfter(first, by: 65534) == nil)
        #expect(Self.retryAfter(first, by: 1000) == nil)
        try await first.flush()
        try database.close()

        let reopened = try AppDatabase.open(path: path)
        let second = SignupRateLimiter(limit: limit, store: RateBucketStore(database: reopened), clock: clock.read)
        try await second.load()
        #expect(Self.retryAfter(second, by: 65534) == 1800, "65534's bucket is still empty after the restart")
        #expect(Self.retryAfter(second, by: 1000) == nil)
        #expect(Self.retryAfter(second, by: 1000) == 1800, "1000 had one left")
        try reopened.close()
    }
}
