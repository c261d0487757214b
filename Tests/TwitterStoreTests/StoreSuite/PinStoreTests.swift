import Foundation
import Testing
import TwitterCore

/// Pinned tweets on every backend: one's own tweet only, one at a time, gone with the tweet.
struct PinStoreTests {
    @Test(arguments: StoreBackend.all) func aPinIsOnesOwnTweetOneAtATimeAndGoesWithIt(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let first = try await fixture.post("first", by: alice)
        let second = try await fixture.post("second", by: alice)
        let bobs = try await fixture.post("bob's", by: bob)
        let repost = try await fixture.tweets.repost(bobs.id, by: alice.id)
        #expect(try await fixture.pins.pinnedTweetID(of: alice.id) == nil)
        try await fixture.pins.pin(first.id, by: alice.id)
        try await fixture.pins.pin(second.id, by: alice.id)
        #expect(try await fixture.pins.pinnedTweetID(of: alice.id) == second.id, "in place of the first")
        // A profile reads the account, its id and its pin at once.
        let account = try #require(try await fixture.follows.account(named: "ALICE", viewerID: bob.id, counted: false))
        #expect(account.id == alice.id && account.pinnedTweetID == second.id && account.overview.username == "alice")
        #expect(
            try await fixture.follows.account(named: "bob", viewerID: alice.id, counted: false)?.pinnedTweetID == nil)
        for (id, kind) in [(bobs.id, TwitterError.Kind.forbidden), (repost.id, .forbidden), (999_999, .notFound)] {
            let error = await #expect(throws: TwitterError.self) { try await fixture.pins.pin(id, by: alice.id) }
            #expect(error?.kind == kind)
        }
        #expect(try await fixture.pins.pinnedTweetID(of: alice.id) == second.id, "a refusal changes nothing")
        try await fixture.tweets.deleteTweet(id: second.id, by: alice.id)
        #expect(try await fixture.pins.pinnedTweetID(of: alice.id) == nil, "a deleted tweet is pinned no more")
        try await fixture.pins.pin(first.id, by: alice.id)
        #expect(try await fixture.pins.unpin(by: alice.id))
        #expect(try await !fixture.pins.unpin(by: alice.id))
        try await fixture.pins.pin(first.id, by: alice.id)
        try await fixture.accounts.deleteAccount(alice.id, reservingNameUntil: Date().addingTimeInterval(60))
        #expect(try await fixture.pins.pinnedTweetID(of: alice.id) == nil)
    }
}
