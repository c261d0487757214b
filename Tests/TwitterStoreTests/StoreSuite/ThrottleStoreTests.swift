import Foundation
import Testing
import TwitterCore

/// Login throttle counts, stored so that a restart (or another daemon) keeps an attacker's count.
struct ThrottleStoreTests {
    @Test(arguments: StoreBackend.all) func throttleStateIsStoredAndEveryConcurrentFailureCounts(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        // Before PostgreSQL's epoch (2000-01-01), where postgres-nio rounds the other way: stored a microsecond
        // late, the wait below would round up to 2 s.
        let moment = Date(timeIntervalSince1970: 1_000_000)
        let throttle = LoginThrottle(store: fixture.throttle, now: { moment })
        let (a, b) = (
            LoginThrottle.Key.accountFromSource("a", uid: 1), LoginThrottle.Key.accountFromSource("b", uid: 1)
        )
        for _ in 0..<5 { try await throttle.recordFailure([a]) }
        #expect(
            try await fixture.throttle.throttleState(for: a.storageName)
                == ThrottleState(failures: 5, lastFailureAt: moment, windowStart: moment, windowFailures: 5))
        // A throttle of its own, as after a restart: the count comes from the store.
        let restarted = LoginThrottle(store: fixture.throttle, now: { moment })
        do {
            try await restarted.check([a])
            Issue.record("the throttle forgot its count")
        } catch let error as TwitterError {
            #expect(error.kind == .rateLimited)
            #expect(error.details["retryAfter"] == .int(1))
        }

        // Failures at once, each reading and writing the same key: none may overwrite another.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { try await throttle.recordFailure([b]) } }
            try await group.waitForAll()
        }
        #expect(try await fixture.throttle.throttleState(for: b.storageName)?.failures == 20)

        try await restarted.recordSuccess([a, .source(uid: 0)])
        #expect(try await fixture.throttle.throttleState(for: a.storageName) == nil)
        #expect(try await fixture.throttle.throttleState(for: b.storageName)?.windowFailures == 20, "others' stay")
        try await restarted.check([a])
    }
}
