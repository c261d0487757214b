import Testing
import TwitterCore
import TwitterRuntime
import TwitterSQL
import TwitterSQLite

@testable import TwitterServer

/// The read model's set of the accounts off the web (`OffWebAccountsCache`, `FeedReadModel.accountsOffWeb`): the
/// kept set is always what the store reads, as accounts move on and off the web, and a load that raced a change is
/// not kept.
struct OffWebAccountsCacheTests {
    @Test func theKeptSetIsTheStoresAsAccountsMoveOnAndOffTheWeb() async throws {
        let database = try AppDatabase.inMemory()
        let model = FeedReadModel(hub: CommitHub())
        let profiles = ProfileStore(database: database, observer: model)
        let users = UserStore(database: database)
        var ids: [Int64] = []
        for name in ["ann", "bo", "cy", "di"] {
            ids.append(
                try await users.createUser(email: "\(name)@example.com", username: name, passwordHash: nil).id)
        }
        #expect(model.caches.offWeb.cached == nil, "nothing is kept before the first read")
        #expect(try await model.accountsOffWeb(store: profiles) == [])
        #expect(model.caches.offWeb.cached == [], "kept from the first read")
        let moves: [(account: Int, visible: Bool)] = [
            (0, false), (1, false), (0, false), (0, true), (2, false), (1, true), (3, true), (2, true), (3, false),
        ]
        for move in moves {
            try await profiles.setWebVisible(move.visible, userID: ids[move.account])
            // The fast path (kept, changed by the commit) and the slow one (the store's scan) agree.
            let kept = try #require(model.caches.offWeb.cached, "still kept after \(move)")
            #expect(kept == (try await profiles.webHiddenUsers()), "after \(move)")
            #expect(try await model.accountsOffWeb(store: profiles) == kept)
        }
        #expect(model.caches.offWeb.cached == [ids[3]])
    }

    @Test func aLoadThatRacedAChangeAnswersItsReadButIsNotKept() async throws {
        let cache = OffWebAccountsCache()
        let raced = try await cache.accounts {
            // Read before the change below was applied: the set it read is already old.
            cache.apply([.account(.webVisibilityChanged(userID: 7, visible: false))])
            return []
        }
        #expect(raced == [] && cache.cached == nil)
        #expect(try await cache.accounts { [7] } == [7])
        cache.apply([.account(.webVisibilityChanged(userID: 7, visible: false))])
        #expect(cache.cached == [7], "applying where an account is twice changes nothing")
        cache.apply([.account(.webVisibilityChanged(userID: 7, visible: true)), .account(.standingChanged(userID: 8))])
        #expect(cache.cached == [])
    }
}
