import Foundation
import Testing
import TwitterCore

/// Quotes on every backend: counted on the original, listed newest first, notified and withdrawn, refused across
/// a block, exact under concurrent posting and deleting, and left pointing at a deleted account's tweet.
struct QuoteStoreTests {
    static func quote(
        _ text: String, of id: Int64, by user: User, in fixture: StoreFixture
    ) async throws -> Tweet {
        try await fixture.tweets.post(PostDraft(text: text, by: user.id, quoteOfID: id))
    }

    static func quotesCount(of id: Int64, in fixture: StoreFixture) async throws -> Int? {
        try await fixture.tweets.tweet(id: id)?.counts.quotes
    }

    @Test(arguments: StoreBackend.all) func aQuoteIsCountedListedNotifiedAndWithdrawnWithItsDeletion(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob, carol) = (
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("carol")
        )
        let original = try await fixture.post("original", by: bob)
        let repost = try await fixture.tweets.repost(original.id, by: carol.id)
        let first = try await Self.quote("", of: repost.id, by: alice, in: fixture)
        #expect(first.quoteOfID == original.id, "quoting a repost quotes its original")
        #expect(first.text.isEmpty, "a quote may say nothing more")
        #expect(fixture.commits.events.contains(.tweet(.counted(id: original.id, TweetCounts(reposts: 1, quotes: 1)))))
        let second = try await Self.quote("me too", of: original.id, by: carol, in: fixture)
        let own = try await Self.quote("mine", of: original.id, by: bob, in: fixture)
        #expect(try await Self.quotesCount(of: original.id, in: fixture) == 3)
        #expect(try await fixture.tweets.tweet(id: first.id)?.quoteOfID == original.id, "read back as stored")
        let read = try await fixture.tweets.tweets(ids: [second.id, original.id, 999_999])
        #expect(read.map(\.id).sorted() == [original.id, second.id], "a page's quoted tweets in one read")
        #expect(try await fixture.tweets.tweets(ids: []).isEmpty)

        let toBob = try await fixture.notifications.notifications(of: bob.id, NotificationQuery(), hiding: [])
        #expect(
            toBob.filter { $0.type == .quote }.compactMap(\.tweet?.id) == [second.id, first.id],
            "bob hears of alice's and carol's quotes, not of his own")

        var listed: [Int64] = []
        var before: Int64?
        repeat {
            let page = try await fixture.tweets.quotes(of: original.id, page: PageRequest(limit: 2, before: before))
            #expect(page.items.count <= 2)
            listed += page.items.map(\.id)
            before = page.next
        } while before != nil
        #expect(listed == [own.id, second.id, first.id], "newest first")
        let hiding = try await fixture.tweets.quotes(of: original.id, page: PageRequest(hiding: [carol.id]))
        #expect(hiding.items.map(\.id) == [own.id, first.id], "a hidden account's quotes leave the list")

        try await fixture.tweets.deleteTweet(id: second.id, by: carol.id)
        #expect(try await Self.quotesCount(of: original.id, in: fixture) == 2)
        let after = try await fixture.notifications.notifications(of: bob.id, NotificationQuery(), hiding: [])
        #expect(after.filter { $0.type == .quote }.compactMap(\.tweet?.id) == [first.id], "withdrawn with the quote")

        try await fixture.tweets.deleteTweet(id: original.id, by: bob.id)
        #expect(try await fixture.tweets.tweet(id: first.id)?.quoteOfID == original.id, "the quote stays")
        await #expect(throws: TwitterError.notFound("Tweet \(original.id)")) {
            try await Self.quote("late", of: original.id, by: alice, in: fixture)
        }
    }

    /// Checked in the post's transaction: across a block either way the quoted tweet is as if missing (-32004,
    /// the same error), as for a reply (issue #48, item 8).
    @Test(arguments: StoreBackend.all) func quotingAcrossABlockIsAsIfTheTweetWereMissingEitherWay(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let bobs = try await fixture.post("bob's", by: bob)
        let alices = try await fixture.post("alice's", by: alice)
        _ = try await fixture.relations.block(alice.id, by: bob.id)
        for (quoter, quoted) in [(alice, bobs), (bob, alices)] {
            await #expect(throws: TwitterError.notFound("Tweet \(quoted.id)")) {
                try await Self.quote("no", of: quoted.id, by: quoter, in: fixture)
            }
        }
        #expect(try await Self.quotesCount(of: bobs.id, in: fixture) == 0)
        #expect(try await Self.quotesCount(of: alices.id, in: fixture) == 0)
    }

    @Test(arguments: StoreBackend.all) func quotesCountIsExactUnderConcurrentQuotesAndDeletions(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let bob = try await fixture.user("bob")
        var quoters: [User] = []
        for index in 0..<4 { quoters.append(try await fixture.user("quoter\(index)")) }
        let original = try await fixture.post("original", by: bob)
        let doomed = try await withThrowingTaskGroup(of: [Tweet].self) { group in
            for quoter in quoters {
                group.addTask {
                    var posted: [Tweet] = []
                    for index in 0..<6 {
                        posted.append(try await Self.quote("q\(index)", of: original.id, by: quoter, in: fixture))
                    }
                    return posted
                }
            }
            var all: [Tweet] = []
            for try await posted in group { all += posted }
            return all
        }
        // Half are deleted while more are posted.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for tweet in doomed.enumerated().filter({ $0.offset.isMultiple(of: 2) }).map(\.element) {
                group.addTask { try await fixture.tweets.deleteTweet(id: tweet.id, by: tweet.author.id) }
            }
            for quoter in quoters {
                group.addTask { _ = try await Self.quote("late", of: original.id, by: quoter, in: fixture) }
            }
            try await group.waitForAll()
        }
        let rows = try await fixture.tweets.quotes(of: original.id, page: PageRequest(limit: 200))
        #expect(rows.items.count == doomed.count / 2 + quoters.count)
        #expect(try await Self.quotesCount(of: original.id, in: fixture) == rows.items.count)
    }

    @Test(arguments: StoreBackend.all) func aDeletedOrSuspendedQuoterLeavesTheCountAndADeletedAuthorsTweetStaysQuoted(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob, carol) = (
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("carol")
        )
        let bobs = try await fixture.post("bob's", by: bob)
        let alicesQuote = try await Self.quote("yes", of: bobs.id, by: alice, in: fixture)
        _ = try await Self.quote("and", of: bobs.id, by: carol, in: fixture)
        _ = try await fixture.moderation.suspend(carol.id, reason: "test", at: Date())
        #expect(try await Self.quotesCount(of: bobs.id, in: fixture) == 1, "a suspended quoter is out of the count")
        _ = try await fixture.moderation.unsuspend(carol.id)
        #expect(try await Self.quotesCount(of: bobs.id, in: fixture) == 2, "and back, exactly")

        try await fixture.accounts.deleteAccount(bob.id, reservingNameUntil: Date().addingTimeInterval(60))
        #expect(try await fixture.tweets.tweet(id: bobs.id) == nil)
        #expect(try await fixture.tweets.tweet(id: alicesQuote.id)?.quoteOfID == bobs.id, "alice's quote stays")

        let quoted = try await Self.quote("mine", of: alicesQuote.id, by: carol, in: fixture)
        #expect(try await Self.quotesCount(of: alicesQuote.id, in: fixture) == 1)
        try await fixture.accounts.deleteAccount(carol.id, reservingNameUntil: Date().addingTimeInterval(60))
        #expect(try await fixture.tweets.tweet(id: quoted.id) == nil)
        #expect(try await Self.quotesCount(of: alicesQuote.id, in: fixture) == 0, "a deleted quoter leaves the count")
    }
}
