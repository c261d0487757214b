import Foundation
import JSONRPC
import Synchronization
import Testing
import TwitterCore
import TwitterSQL
import TwitterSQLite

@testable import TwitterServer

/// Write rate limits per account and action, on a clock the test moves.
struct WriteRateLimiterTests {
    /// A clock that stands still until the test moves it.
    final class MovedClock: Sendable {
        private let now = Mutex(Date(timeIntervalSince1970: 1_700_000_000))

        var read: @Sendable () -> Date { { [self] in now.withLock { $0 } } }

        func move(by seconds: TimeInterval) {
            now.withLock { $0 = $0.addingTimeInterval(seconds) }
        }
    }

    /// The seconds a refused take says to wait; nil when the take was allowed.
    static func retryAfter(_ limiter: WriteRateLimiter, _ action: RateLimitedAction, by userID: Int64) -> Int? {
        do {
            try limiter.take(action, by: userID)
            return nil
        } catch {
            guard error.kind == .rateLimited, case .int(let seconds) = error.details["retryAfter"] else {
                Issue.record("an unexpected error: \(error)")
                return nil
            }
            return seconds
        }
    }

    @Test func eachAccountHasABucketPerActionSharedByAllItsConnections() {
        let clock = MovedClock()
        let limiter = WriteRateLimiter(
            limits: [.posts: RateLimit(count: 2, period: 20), .likes: RateLimit(count: 1, period: 60)], store: nil,
            clock: clock.read)
        #expect(Self.retryAfter(limiter, .posts, by: 1) == nil)
        #expect(Self.retryAfter(limiter, .posts, by: 1) == nil, "another connection of the same account")
        #expect(Self.retryAfter(limiter, .posts, by: 1) == 10)
        #expect(Self.retryAfter(limiter, .likes, by: 1) == nil, "another action has its own bucket")
        #expect(Self.retryAfter(limiter, .likes, by: 1) == 60)
        #expect(Self.retryAfter(limiter, .posts, by: 2) == nil, "another account has its own bucket")
        for _ in 0..<1000 { #expect(Self.retryAfter(limiter, .follows, by: 1) == nil, "follows are not limited") }
        clock.move(by: 4)
        #expect(Self.retryAfter(limiter, .posts, by: 1) == 6)
        clock.move(by: 6)
        #expect(Self.retryAfter(limiter, .posts, by: 1) == nil, "one came back after 10 s")
        #expect(Self.retryAfter(limiter, .posts, by: 1) == 10)
        clock.move(by: 3600)
        #expect(Self.retryAfter(limiter, .posts, by: 1) == nil)
        #expect(Self.retryAfter(limiter, .posts, by: 1) == nil)
        #expect(Self.retryAfter(limiter, .posts, by: 1) != nil, "an hour idle refills to the count, no more")
    }

    @Test func theUnlimitedLimiterNeverRefuses() {
        for action in RateLimitedAction.allCases {
            for _ in 0..<500 { #expect(Self.retryAfter(.unlimited, action, by: 1) == nil) }
        }
    }

    @Test func aRefusalIsMinus32006WithRetryAfterInItsData() throws {
        let limiter = WriteRateLimiter(
            limits: [.reposts: RateLimit(count: 1, period: 3600)], store: nil, clock: MovedClock().read)
        try limiter.take(.reposts, by: 7)
        do {
            try limiter.take(.reposts, by: 7)
            Issue.record("the second repost was allowed")
        } catch {
            let rpc = error.rpcError
            #expect(rpc.code == -32006)
            #expect(rpc.data["retryAfter"] == 3600)
            #expect(rpc.data["kind"] == .string("rate_limited"))
        }
    }

    @Test func bucketsSurviveARestartThroughTheStore() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rates-\(UUID()).sqlite").path
        let database = try AppDatabase.open(path: path)
        let users = UserStore(database: database)
        let alice = try await users.createUser(email: "alice@example.com", username: "alice", passwordHash: nil)
        let bob = try await users.createUser(email: "bob@example.com", username: "bob", passwordHash: nil)
        let store = RateBucketStore(database: database)
        let clock = MovedClock()
        let limits: [RateLimitedAction: RateLimit] = [.posts: RateLimit(count: 2, period: 20)]
        let first = WriteRateLimiter(limits: limits, store: store, clock: clock.read)
        try await first.load()
        #expect(Self.retryAfter(first, .posts, by: alice.id) == nil)
        #expect(Self.retryAfter(first, .posts, by: alice.id) == nil)
        #expect(Self.retryAfter(first, .posts, by: bob.id) == nil)
        try await first.flush()
        let stored = try await store.allBuckets()
        #expect(stored.map(\.userID).sorted() == [alice.id, bob.id])
        #expect(stored.first { $0.userID == alice.id }?.bucket.tokens == 0)
        #expect(stored.first { $0.userID == bob.id }?.bucket.tokens == 1)

        // A restart: a new limiter reads what the first one wrote.
        try database.close()
        let reopened = RateBucketStore(database: try AppDatabase.open(path: path))
        let second = WriteRateLimiter(limits: limits, store: reopened, clock: clock.read)
        try await second.load()
        #expect(Self.retryAfter(second, .posts, by: alice.id) == 10, "alice's bucket is still empty")
        #expect(Self.retryAfter(second, .posts, by: bob.id) == nil)
        #expect(Self.retryAfter(second, .posts, by: bob.id) == 10, "bob had one left")
        clock.move(by: 10)
        #expect(Self.retryAfter(second, .posts, by: alice.id) == nil)

        // A flush writes only what changed since the last one.
        try await second.flush()
        try await reopened.save([(alice.id, .posts, TokenBucket(tokens: 2, updatedAt: clock.read()))])
        try await second.flush()
        #expect(try await reopened.allBuckets().first { $0.userID == alice.id }?.bucket.tokens == 2)
    }
}
