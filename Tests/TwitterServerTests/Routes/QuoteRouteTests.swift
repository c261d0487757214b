import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// Quotes: `tweets.post` with `quoteOf`, `quotesCount`, `tweets.quotes`, the `quote` notification, and the quoted
/// tweet as each reader may see it, never as another reader's page held it.
struct QuoteRouteTests: RouteTesting {
    static let routes = [API.Tweets.quotes.name]

    static func quotedText(_ tweet: Tweet?) -> String? {
        if case .tweet(let quoted)? = tweet?.quoted { quoted.text } else { nil }
    }

    static func isUnavailable(_ tweet: Tweet?) -> Bool {
        if case .unavailable? = tweet?.quoted { true } else { false }
    }

    @Test func aQuoteCarriesTheQuotedTweetIsCountedAndListedNewestFirst() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let original = try await bob.call(API.Tweets.post, .init(text: "original"))
        _ = try await alice.call(API.Tweets.like, .init(id: original.id))
        let repost = try await bob.call(API.Tweets.repost, .init(id: original.id))
        let first = try await alice.call(API.Tweets.post, .init(text: "", quoteOf: repost.id))
        #expect(first.text.isEmpty && first.quoteOfID == original.id, "quoting a repost quotes its original")
        guard case .tweet(let shown)? = first.quoted else {
            Issue.record("the quote answers the quoted tweet")
            return
        }
        #expect(shown.id == original.id && shown.text == "original" && shown.likedByMe, "with the quoter's marks")
        let second = try await bob.call(API.Tweets.post, .init(text: "me again", quoteOf: original.id))
        #expect(try await alice.call(API.Tweets.get, .init(id: original.id)).counts.quotes == 2)
        #expect(Self.quotedText(try await bob.call(API.Tweets.get, .init(id: first.id))) == "original")

        let page = try await alice.call(API.Tweets.quotes, .init(id: original.id, limit: 1))
        #expect(page.tweets.map(\.id) == [second.id])
        let cursor = try page.nextCursor.orThrow("a next page")
        let next = try await alice.call(API.Tweets.quotes, .init(id: repost.id, limit: 1, cursor: cursor))
        #expect(next.tweets.map(\.id) == [first.id] && next.nextCursor == nil, "a repost's id names its original")
        #expect(next.tweets.allSatisfy { Self.quotedText($0) == "original" })

        #expect(try await alice.refusal(API.Tweets.post, .init(text: "")).code == -32602, "only a quote may be empty")
        #expect(try await alice.refusal(API.Tweets.post, .init(text: "x", quoteOf: 999_999)).code == -32004)
        #expect(try await alice.refusal(API.Tweets.quotes, .init(id: 999_999)).code == -32004)
        #expect(try await alice.refusal(API.Tweets.quotes, .init(id: original.id, cursor: "nope")).code == -32602)
        #expect(try await daemon.connect().refusal(API.Tweets.quotes, .init(id: original.id)).code == -32001)

        _ = try await alice.call(API.Tweets.delete, .init(id: first.id))
        #expect(try await bob.call(API.Tweets.get, .init(id: original.id)).counts.quotes == 1)
        _ = try await bob.call(API.Tweets.delete, .init(id: original.id))
        #expect(Self.isUnavailable(try await alice.call(API.Tweets.get, .init(id: second.id))), "deleted: unavailable")
        let fetched = try await alice.call(API.Tweets.fetch, .init())
        #expect(Self.isUnavailable(fetched.tweets.first { $0.id == second.id }), "also on a page read from the caches")
    }

    /// Issue #48, item 8: a quote across a block was -32003, a missing tweet -32004, so the blocked account
    /// learnt which of the blocker's ids were tweets. Now both are the same answer, word for word.
    @Test func quotingAcrossABlockEitherWayIsAnsweredAsForAMissingTweet() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let bobs = try await bob.call(API.Tweets.post, .init(text: "bob's"))
        let alices = try await alice.call(API.Tweets.post, .init(text: "alice's"))
        _ = try await bob.call(API.Users.block, .init(username: "alice"))
        let missing: Int64 = 999_999
        for (quoter, quoted) in [(alice, bobs.id), (bob, alices.id)] {
            let refused = try await quoter.refusal(API.Tweets.post, .init(text: "no", quoteOf: quoted))
            let absent = try await quoter.refusal(API.Tweets.post, .init(text: "no", quoteOf: missing))
            #expect(refused.code == -32004 && absent.code == -32004)
            #expect(refused.message == absent.message.replacingOccurrences(of: "\(missing)", with: "\(quoted)"))
            #expect(refused.data == absent.data)
        }
        #expect(try await alice.refusal(API.Tweets.quotes, .init(id: bobs.id)).code == -32004, "as if absent")
        #expect(try await alice.call(API.Tweets.get, .init(id: alices.id)).counts.quotes == 0)
    }

    @Test func aPageHeldForOneReaderNeverShowsTheQuotedTweetToAReaderWhoHidesItsAuthor() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        let dave = try await daemon.signUp("dave")
        let bobs = try await bob.call(API.Tweets.post, .init(text: "bob's words"))
        let quote = try await alice.call(API.Tweets.post, .init(text: "look", quoteOf: bobs.id))
        // Pages read by readers who hide nobody are kept in the read model's caches for every such reader.
        for reader in [alice, carol, dave] {
            let page = try await reader.call(API.Tweets.fetch, .init())
            #expect(Self.quotedText(page.tweets.first { $0.id == quote.id }) == "bob's words")
            let user = try await reader.call(API.Timelines.user, .init(username: "alice"))
            #expect(Self.quotedText(user.tweets.first { $0.id == quote.id }) == "bob's words")
        }
        _ = try await carol.call(API.Users.block, .init(username: "bob"))
        _ = try await bob.call(API.Users.block, .init(username: "dave"))
        for reader in [carol, dave] {
            let page = try await reader.call(API.Tweets.fetch, .init())
            let shown = try page.tweets.first { $0.id == quote.id }.orThrow("the quote itself still shows")
            #expect(Self.isUnavailable(shown), "a block either way hides the quoted tweet")
            let user = try await reader.call(API.Timelines.user, .init(username: "alice"))
            #expect(Self.isUnavailable(user.tweets.first { $0.id == quote.id }))
            #expect(Self.isUnavailable(try await reader.call(API.Tweets.get, .init(id: quote.id))))
            let thread = try await reader.call(API.Tweets.thread, .init(id: quote.id))
            #expect(Self.isUnavailable(thread.tweet))
        }
        #expect(Self.quotedText(try await alice.call(API.Tweets.fetch, .init()).tweets.first) == "bob's words")

        _ = try await alice.call(API.Users.mute, .init(username: "bob"))
        #expect(Self.isUnavailable(try await alice.call(API.Tweets.get, .init(id: quote.id))), "a mute hides it too")
        _ = try await alice.call(API.Users.unmute, .init(username: "bob"))
        #expect(Self.quotedText(try await alice.call(API.Tweets.get, .init(id: quote.id))) == "bob's words")

        // The author's account deleted: other people's quotes of its tweets stay, the quoted tweet unavailable.
        _ = try await bob.call(API.Account.delete, .init(password: InProcessDaemon.password))
        #expect(Self.isUnavailable(try await alice.call(API.Tweets.get, .init(id: quote.id))))
        #expect(Self.isUnavailable(try await alice.call(API.Tweets.fetch, .init()).tweets.first { $0.id == quote.id }))
    }

    @Test func theQuotedAuthorIsNotifiedUnlessItMutesTheQuoterAndTheQuotesDeletionWithdrawsIt() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        let bobs = try await bob.call(API.Tweets.post, .init(text: "bob's"))
        let quote = try await alice.call(API.Tweets.post, .init(text: "so true", quoteOf: bobs.id))
        _ = try await bob.call(API.Tweets.post, .init(text: "mine", quoteOf: bobs.id))
        var told = try await bob.call(API.Notifications.list, .init()).notifications
        #expect(told.map(\.type) == [.quote], "not for quoting oneself")
        #expect(told.first?.tweet?.id == quote.id && told.first?.from.username == "alice")

        _ = try await bob.call(API.Users.mute, .init(username: "carol"))
        _ = try await carol.call(API.Tweets.post, .init(text: "muted", quoteOf: bobs.id))
        told = try await bob.call(API.Notifications.list, .init()).notifications
        #expect(told.map(\.tweet?.id) == [quote.id], "a muted quoter notifies nobody")

        _ = try await alice.call(API.Tweets.delete, .init(id: quote.id))
        #expect(try await bob.call(API.Notifications.list, .init()).notifications.isEmpty, "withdrawn")
    }

    @Test func theExportKeepsTheQuotedTweetsIdOnly() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let bobs = try await bob.call(API.Tweets.post, .init(text: "bob's"))
        _ = try await alice.call(API.Tweets.post, .init(text: "quoting", quoteOf: bobs.id))
        let exported = try await alice.call(API.Account.export, .init()).tweets
        #expect(exported.map(\.tweet.quoteOfID) == [bobs.id])
        #expect(exported.allSatisfy { $0.tweet.quoted == nil }, "the quoted tweet's id, none of its text")
    }
}
