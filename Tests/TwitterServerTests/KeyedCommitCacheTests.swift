import Testing
import TwitterCore

@testable import TwitterServer

/// The per-key layer of the read model: values loaded once, then kept current by the commits alone.
struct KeyedCommitCacheTests {
    /// The read model's own layer of whom each reader follows, fresh.
    static func followees() -> KeyedCommitCache<RelationEvent, Set<Int64>> {
        ReadModelCaches(capacity: 10).following
    }

    @Test func aLoadedValueFollowsTheCommitsOfItsKeyAndNoOther() async throws {
        let cache = Self.followees()
        #expect(try await cache.value(of: 1) { [2] } == [2])
        _ = try await cache.value(of: 5) { [6] }
        cache.apply([
            .relation(.followed(followerID: 1, followeeID: 3)), .relation(.unfollowed(followerID: 1, followeeID: 2)),
        ])
        #expect(cache.cached(1) == [3])
        #expect(cache.cached(5) == [6], "another key's value is untouched")
        let loadedAgain = try await cache.value(of: 1) {
            Issue.record("a kept value is not loaded again"); return []
        }
        #expect(loadedAgain == [3])
    }

    @Test func eventsThatChangeNoKeyLeaveEveryValueAsItWas() async throws {
        let cache = Self.followees()
        _ = try await cache.value(of: 1) { [2] }
        cache.apply([.tweet(.liked(id: 7, userID: 1)), .tweet(.deleted(id: 7, authorID: 1, repostOf: nil))])
        #expect(cache.cached(1) == [2])
        // A load begun before these events is kept: they touched no key, so it raced nothing.
        let kept = try await cache.value(of: 9) {
            cache.apply([.tweet(.liked(id: 8, userID: 9))])
            return [1]
        }
        #expect(kept == [1])
        #expect(cache.cached(9) == [1])
    }

    @Test func aLoadThatRacedACommitOfItsKeyAnswersButIsNotKept() async throws {
        let cache = Self.followees()
        let raced = try await cache.value(of: 1) {
            // The store's answer predates this commit, which lands while the load is under way.
            cache.apply([.relation(.followed(followerID: 1, followeeID: 4))])
            return [2]
        }
        #expect(raced == [2], "the load answers its own read")
        #expect(cache.cached(1) == nil, "but is not kept, missing the follow")
    }

    @Test func whatTellsARacedLoadIsKeptOnlyWhileLoadsAreUnderWay() async throws {
        let cache = Self.followees()
        struct Refused: Error {}
        // Two loads of one key at once; an event lands after the first began and before the second did.
        let first = try await cache.value(of: 1) {
            #expect(cache.keysLoading == 1)
            cache.apply([.relation(.followed(followerID: 1, followeeID: 4))])
            let second = try await cache.value(of: 1) { [4] }
            #expect(second == [4])
            #expect(cache.cached(1) == [4], "the second began after the event, so it is kept")
            return [2]
        }
        #expect(first == [2])
        #expect(cache.cached(1) == [4], "the first raced the event and does not replace it")
        await #expect(throws: Refused.self) { try await cache.value(of: 2) { throw Refused() } }
        cache.apply((3...1000).map { .relation(.followed(followerID: $0, followeeID: 1)) })
        #expect(cache.keysLoading == 0, "events for keys no one loads leave nothing behind")
    }
}
