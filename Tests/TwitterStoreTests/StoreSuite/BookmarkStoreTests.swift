import Foundation
import Testing
import TwitterCore

/// Bookmarks on every backend: private marks, paged newest first, refused across a block, gone with their tweet
/// and with either account.
struct BookmarkStoreTests {
    @Test(arguments: StoreBackend.all) func bookmarksArePagedMarkedAndReportedToTheReaderAlone(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let tweets = [
            try await fixture.post("one", by: bob), try await fixture.post("two", by: bob),
            try await fixture.post("three", by: bob),
        ]
        let repost = try await fixture.tweets.repost(tweets[0].id, by: bob.id)
        #expect(try await fixture.bookmarks.bookmark(tweets[1].id, by: alice.id))
        #expect(try await fixture.bookmarks.bookmark(repost.id, by: alice.id), "a repost's original is bookmarked")
        #expect(try await !fixture.bookmarks.bookmark(tweets[0].id, by: alice.id), "bookmarking again changes nothing")
        #expect(try await fixture.bookmarks.bookmark(tweets[2].id, by: alice.id))
        #expect(fixture.commits.events.last == .tweet(.bookmarked(id: tweets[2].id, userID: alice.id)))
        #expect(
            !fixture.commits.events.contains { if case .account(.notified) = $0 { true } else { false } },
            "nobody is told")

        var texts: [String] = []
        var before: Int64?
        repeat {
            let page = try await fixture.bookmarks.bookmarks(of: alice.id, page: PageRequest(limit: 2, before: before))
            #expect(page.tweets.count <= 2)
            texts += page.tweets.map(\.text)
            before = page.next
        } while before != nil
        #expect(texts == ["three", "one", "two"], "newest bookmark first")
        #expect(try await fixture.bookmarks.bookmarks(of: bob.id, page: PageRequest()).tweets.isEmpty)
        #expect(try await fixture.likes.marks(of: alice.id).bookmarked == Set(tweets.map(\.id)))
        #expect(try await fixture.likes.marks(of: bob.id).bookmarked.isEmpty)

        #expect(try await fixture.bookmarks.unbookmark(tweets[1].id, by: alice.id))
        #expect(try await !fixture.bookmarks.unbookmark(tweets[1].id, by: alice.id))
        #expect(fixture.commits.events.last == .tweet(.unbookmarked(id: tweets[1].id, userID: alice.id)))
        await #expect(throws: TwitterError.self) { try await fixture.bookmarks.bookmark(999_999, by: alice.id) }
    }

    @Test(arguments: StoreBackend.all) func aBlockRefusesABookmarkAndHiddenOrDeletedTweetsLeaveTheList(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob, carol) = (
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("carol")
        )
        let bobs = try await fixture.post("bob's", by: bob)
        let carols = try await fixture.post("carol's", by: carol)
        let gone = try await fixture.post("gone", by: carol)
        for tweet in [bobs, carols, gone] { _ = try await fixture.bookmarks.bookmark(tweet.id, by: alice.id) }
        try await fixture.tweets.deleteTweet(id: gone.id, by: carol.id)
        #expect(
            try await fixture.bookmarks.bookmarks(of: alice.id, page: PageRequest()).tweets.map(\.id) == [
                carols.id, bobs.id,
            ])
        let hiding = PageRequest(hiding: [bob.id])
        #expect(try await fixture.bookmarks.bookmarks(of: alice.id, page: hiding).tweets.map(\.id) == [carols.id])

        _ = try await fixture.relations.block(alice.id, by: bob.id)
        let late = try await fixture.post("after the block", by: bob)
        await #expect(throws: TwitterError.self, "across a block, as if absent") {
            try await fixture.bookmarks.bookmark(late.id, by: alice.id)
        }
        #expect(try await fixture.bookmarks.unbookmark(bobs.id, by: alice.id), "taking one back needs no sight")

        _ = try await fixture.moderation.suspend(carol.id, reason: "test", at: Date())
        #expect(try await fixture.bookmarks.bookmarks(of: alice.id, page: PageRequest()).tweets.isEmpty)
    }

    @Test(arguments: StoreBackend.all) func anAccountsDeletionTakesItsBookmarksAndTheBookmarksOfItsTweets(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let bobs = try await fixture.post("bob's", by: bob)
        let alices = try await fixture.post("alice's", by: alice)
        _ = try await fixture.bookmarks.bookmark(bobs.id, by: alice.id)
        _ = try await fixture.bookmarks.bookmark(alices.id, by: bob.id)
        try await fixture.accounts.deleteAccount(alice.id, reservingNameUntil: Date().addingTimeInterval(60))
        #expect(try await fixture.bookmarks.bookmarks(of: bob.id, page: PageRequest()).tweets.isEmpty)
        #expect(try await fixture.bookmarks.bookmarks(of: alice.id, page: PageRequest()).tweets.isEmpty)
        #expect(try await fixture.likes.marks(of: alice.id).bookmarked.isEmpty, "its own bookmarks are gone")
    }
}
