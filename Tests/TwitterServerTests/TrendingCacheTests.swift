import Synchronization
import Testing
import TwitterCore

@testable import TwitterServer

/// `tags.trending` is computed at most once per window and size per `maximumAge`.
struct TrendingCacheTests {
    @Test func anAnswerIsServedUntilItIsTooOldThenComputedAgain() async throws {
        let start = ContinuousClock.now
        let now = Mutex(start)
        let cache = TrendingCache(maximumAge: .seconds(5), clock: { now.withLock { $0 } })
        let computed = Mutex(0)
        func ask(hours: Int = 24) async throws -> [TrendingTag] {
            try await cache.tags(hours: hours, limit: 10) {
                let count = computed.withLock { count in
                    count += 1
                    return count
                }
                return [TrendingTag(tag: "t\(count)", tweetsCount: count, usersCount: 1)]
            }
        }
        #expect(try await ask().map(\.tag) == ["t1"])
        now.withLock { $0 = start + .seconds(4) }
        #expect(try await ask().map(\.tag) == ["t1"], "young enough: not computed again")
        #expect(try await ask(hours: 1).map(\.tag) == ["t2"], "another window is its own answer")
        now.withLock { $0 = start + .seconds(5) }
        #expect(try await ask().map(\.tag) == ["t3"], "too old: computed again")
        #expect(computed.withLock { $0 } == 3)
    }
}
