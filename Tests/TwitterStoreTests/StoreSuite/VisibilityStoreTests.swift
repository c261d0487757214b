import Foundation
import Testing
import TwitterCore

/// What the stores decide of visibility inside their own transactions, on every backend: the writes that name a
/// tweet, and an account's archive.
struct VisibilityStoreTests {
    /// Who blocks whom between the original's author and the reader.
    enum Block: String, CaseIterable, Sendable {
        case originalsAuthorBlocksReader, readerBlocksOriginalsAuthor
    }

    static let notFound: @Sendable (any Error) -> Bool = { ($0 as? TwitterError)?.kind == .notFound }

    @Test(arguments: StoreBackend.all, Block.allCases)
    func writesNamingARepostOfAnUnseeableOriginalAreAsIfItWereAbsent(_ backend: StoreBackend, _ block: Block)
        async throws
    {
        let fixture = try await backend.fixture()
        let (alice, bob, carol) = (
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("carol")
        )
        let original = try await fixture.post("alice's own words", by: alice)
        let repost = try await fixture.tweets.repost(original.id, by: carol.id)
        let (blocker, blocked) = block == .originalsAuthorBlocksReader ? (alice, bob) : (bob, alice)
        #expect(try await fixture.relations.block(blocked.id, by: blocker.id))
        for id in [repost.id, original.id] {
            await #expect { _ = try await fixture.likes.like(id, by: bob.id) } throws: { Self.notFound($0) }
            await #expect { _ = try await fixture.tweets.repost(id, by: bob.id) } throws: { Self.notFound($0) }
            await #expect { _ = try await fixture.post("hi", by: bob, inReplyTo: id) } throws: { Self.notFound($0) }
        }
        #expect(try await fixture.tweets.tweet(id: original.id)?.counts == TweetCounts(reposts: 1), "nothing counted")
    }

    @Test(arguments: StoreBackend.all, Block.allCases)
    func aRepostsOwnAuthorBlockingTheReaderHidesItToo(_ backend: StoreBackend, _ block: Block) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob, carol) = (
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("carol")
        )
        let original = try await fixture.post("alice's own words", by: alice)
        let repost = try await fixture.tweets.repost(original.id, by: carol.id)
        let (blocker, blocked) = block == .originalsAuthorBlocksReader ? (carol, bob) : (bob, carol)
        #expect(try await fixture.relations.block(blocked.id, by: blocker.id))
        await #expect { _ = try await fixture.likes.like(repost.id, by: bob.id) } throws: { Self.notFound($0) }
        await #expect { _ = try await fixture.post("hi", by: bob, inReplyTo: repost.id) } throws: { Self.notFound($0) }
        _ = try await fixture.likes.like(original.id, by: bob.id)  // alice's tweet by its own id is bob's to like
    }

    @Test(arguments: StoreBackend.all, Block.allCases)
    func theArchiveOfARepostOfAnUnseeableOriginalCarriesNoneOfItsText(_ backend: StoreBackend, _ block: Block)
        async throws
    {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let original = try await fixture.post("alice's secret words", by: alice)
        let repost = try await fixture.tweets.repost(original.id, by: bob.id)
        let seen = try await fixture.accounts.archivePage(of: bob.id, from: .start, limit: 500)
        #expect(seen.tweets.map { $0.repostOf?.text } == ["alice's secret words"], "seen before the block")
        let (blocker, blocked) = block == .originalsAuthorBlocksReader ? (alice, bob) : (bob, alice)
        #expect(try await fixture.relations.block(blocked.id, by: blocker.id))
        let page = try await fixture.accounts.archivePage(of: bob.id, from: .start, limit: 500)
        #expect(page.tweets.map(\.id) == [repost.id], "the repost keeps its place")
        #expect(page.tweets.first?.repostOf == nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(page), as: UTF8.self)
        #expect(!json.contains("secret"), "\(json)")
        #expect(json.contains(#""repostOf":{"id":\#(original.id),"unavailable":true}"#), "\(json)")
        let decoded = try JSONDecoder().decode(AccountArchivePage.self, from: Data(json.utf8))
        #expect(decoded.tweets.map(\.id) == [repost.id], "an archive with a placeholder reads back")
    }

    /// `reports.create`, `tweets.get` and every method naming a tweet read it through `TweetAccess`, which asks
    /// `TweetVisibility` of what each store gives: the repost with its original's author, and the reader's hidden
    /// accounts. From the refused side, on every backend, those facts refuse the repost as the original.
    @Test(arguments: StoreBackend.all, Block.allCases)
    func theFactsEveryTweetReadAsksRefuseARepostOfAnUnseeableOriginal(_ backend: StoreBackend, _ block: Block)
        async throws
    {
        let fixture = try await backend.fixture()
        let (alice, bob, carol) = (
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("carol")
        )
        let original = try await fixture.post("alice's own words", by: alice)
        let repost = try await fixture.tweets.repost(original.id, by: carol.id)
        let (blocker, blocked) = block == .originalsAuthorBlocksReader ? (alice, bob) : (bob, alice)
        #expect(try await fixture.relations.block(blocked.id, by: blocker.id))
        let visibility = TweetVisibility(try await fixture.relations.hiddenAccounts(of: bob.id))
        let stored = try await fixture.tweets.tweet(id: repost.id)
        #expect(stored?.repostOf?.author.id == alice.id, "the repost carries its original's author")
        #expect(throws: TwitterError.notFound("Tweet \(repost.id)")) {
            try visibility.accessible(stored, id: repost.id)
        }
        let carols = TweetVisibility(try await fixture.relations.hiddenAccounts(of: carol.id))
        #expect(try carols.accessible(stored, id: repost.id).id == repost.id, "no block, no refusal")
    }
}
