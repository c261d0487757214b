import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// `tweets.post`, `fetch`, `get`, `delete` and the live stream.
struct TweetRouteTests: RouteTesting {
    static let routes = [
        API.Tweets.post.name, API.Tweets.fetch.name, API.Tweets.get.name, API.Tweets.delete.name,
        API.Tweets.subscribe.name, API.Tweets.unsubscribe.name,
    ]

    @Test func postKeepsTheTextAndItsEntitiesAndRefusesWhatBreaksTheRules() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        _ = try await daemon.signUp("bob")
        let tweet = try await alice.call(
            API.Tweets.post, .init(text: "  hello @bob @nobody #Swift https://swift.org  "))
        #expect(tweet.text == "hello @bob @nobody #Swift https://swift.org", "trimmed")
        #expect(tweet.author.username == "alice")
        #expect(tweet.entities.hashtags.map(\.tag) == ["Swift"])
        #expect(tweet.entities.mentions.map(\.username) == ["bob"], "only accounts that exist are mentioned")
        #expect(tweet.entities.urls.map(\.url) == ["https://swift.org"])

        let keyed = try await alice.call(API.Tweets.post, .init(text: "once", idempotencyKey: "k1"))
        #expect(try await alice.call(API.Tweets.post, .init(text: "once", idempotencyKey: "k1")).id == keyed.id)

        #expect(try await alice.refusal(API.Tweets.post, .init(text: "   ")).code == -32602)
        #expect(
            try await alice.refusal(API.Tweets.post, .init(text: String(repeating: "a", count: 141))).code == -32602)
        #expect(try await alice.refusal(API.Tweets.post, .init(text: "bell \u{7}")).code == -32602)
        #expect(try await alice.refusal(API.Tweets.post, .init(text: "re", inReplyToId: 999_999)).code == -32004)
        #expect(try await alice.refusal(API.Tweets.post.name, ["text": 42]).code == -32602)
        #expect(try await daemon.connect().refusal(API.Tweets.post, .init(text: "anonymous")).code == -32001)
    }

    @Test func postsArePerAccountRateLimitedWhenTheDaemonSaysSo() async throws {
        let daemon = try await InProcessDaemon { $0.community.rates = [.posts: RateLimit(count: 2, period: 3600)] }
        let alice = try await daemon.signUp("alice")
        _ = try await alice.call(API.Tweets.post, .init(text: "one"))
        _ = try await alice.call(API.Tweets.post, .init(text: "two"))
        #expect(try await alice.refusal(API.Tweets.post, .init(text: "three")).code == -32006)
        let bob = try await daemon.signUp("bob")
        _ = try await bob.call(API.Tweets.post, .init(text: "bob's own budget"))
    }

    @Test func fetchPagesNewestFirstByAuthorAndRefusesAnUnknownOne() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        var ids: [Int64] = []
        for text in ["a1", "b1", "a2", "b2"] {
            let poster = text.hasPrefix("a") ? alice : bob
            ids.append(try await poster.call(API.Tweets.post, .init(text: text)).id)
        }
        let all = try await bob.call(API.Tweets.fetch, .init())
        #expect(all.tweets.map(\.text) == ["b2", "a2", "b1", "a1"])
        #expect(all.newestId == ids[3] && all.oldestId == ids[0])
        #expect(try await bob.call(API.Tweets.fetch, .init(author: "alice")).tweets.map(\.text) == ["a2", "a1"])
        #expect(try await bob.call(API.Tweets.fetch, .init(sinceId: ids[1])).tweets.map(\.text) == ["b2", "a2"])
        #expect(try await bob.call(API.Tweets.fetch, .init(maxId: ids[2], limit: 1)).tweets.map(\.text) == ["b1"])
        #expect(try await bob.refusal(API.Tweets.fetch, .init(author: "nobody")).code == -32004)
        #expect(try await bob.refusal(API.Tweets.fetch, .init(limit: 201)).code == -32602)
        #expect(try await daemon.connect().refusal(API.Tweets.fetch, .init()).code == -32001)
    }

    @Test func getShowsOneTweetButNotAcrossABlock() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let tweet = try await alice.call(API.Tweets.post, .init(text: "hello"))
        #expect(try await bob.call(API.Tweets.get, .init(id: tweet.id)) == tweet)
        #expect(try await bob.refusal(API.Tweets.get, .init(id: tweet.id + 100)).code == -32004)
        _ = try await alice.call(API.Users.block, .init(username: "bob"))
        #expect(try await bob.refusal(API.Tweets.get, .init(id: tweet.id)).code == -32004, "as if absent")
    }

    @Test func deleteTakesYourOwnTweetOnly() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let tweet = try await alice.call(API.Tweets.post, .init(text: "mine"))
        #expect(try await bob.refusal(API.Tweets.delete, .init(id: tweet.id)).code == -32003)
        #expect(try await bob.call(API.Tweets.get, .init(id: tweet.id)).text == "mine")
        #expect(try await alice.call(API.Tweets.delete, .init(id: tweet.id)).deleted)
        #expect(try await bob.refusal(API.Tweets.get, .init(id: tweet.id)).code == -32004)
        #expect(try await alice.refusal(API.Tweets.delete, .init(id: tweet.id)).code == -32004)
        #expect(try await bob.call(API.Tweets.fetch, .init()).tweets.isEmpty)
    }

    @Test func subscribeStreamsAnAuthorsNewAndDeletedTweetsAfterItsAnswer() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let before = try await bob.call(API.Tweets.post, .init(text: "before"))
        let subscription = try await alice.call(API.Tweets.subscribe, .init(author: "bob", sinceId: 0)).subscription
        let backlog = try #require(await alice.inbox.next())
        #expect(
            backlog["method"] == "tweets.new" && backlog["params"]?["tweet"]?["id"] == .number(.init(Int(before.id))))
        _ = try await alice.call(API.Tweets.post, .init(text: "not bob's"))
        let live = try await bob.call(API.Tweets.post, .init(text: "live"))
        let new = try #require(await alice.inbox.next())
        #expect(new["params"]?["tweet"]?["text"] == "live")
        #expect(new["params"]?["subscription"] == .number(.init(subscription)))
        _ = try await bob.call(API.Tweets.delete, .init(id: live.id))
        let deleted = try #require(await alice.inbox.next())
        #expect(deleted["method"] == "tweets.deleted" && deleted["params"]?["id"] == .number(.init(Int(live.id))))

        #expect(try await alice.refusal(API.Tweets.subscribe, .init(author: "nobody")).code == -32004)
        #expect(try await daemon.connect().refusal(API.Tweets.subscribe, .init()).code == -32001)
        await alice.close()
    }

    @Test func aLiveStreamLeavesOutTheTweetsAndTheGoingOfAnAccountThatBlocksTheReader() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        _ = try await alice.call(API.Tweets.subscribe, .init())
        _ = try await bob.call(API.Users.block, .init(username: "alice"))
        let hidden = try await bob.call(API.Tweets.post, .init(text: "not for alice"))
        _ = try await bob.call(API.Tweets.delete, .init(id: hidden.id))
        let shown = try await carol.call(API.Tweets.post, .init(text: "for everyone"))
        _ = try await carol.call(API.Tweets.delete, .init(id: shown.id))
        let new = try #require(await alice.inbox.next())
        #expect(new["method"] == "tweets.new" && new["params"]?["tweet"]?["text"] == "for everyone", "\(new)")
        let deleted = try #require(await alice.inbox.next())
        #expect(deleted["method"] == "tweets.deleted", "\(deleted)")
        #expect(deleted["params"]?["id"] == .number(.init(Int(shown.id))), "bob's deletion was never sent")
        await alice.close()
    }

    @Test func unsubscribeEndsOnlyThisConnectionsOwnSubscription() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let subscription = try await alice.call(API.Tweets.subscribe, .init()).subscription
        let refused = try await bob.refusal(API.Tweets.unsubscribe, .init(subscription: subscription))
        #expect(refused.code == -32004, "a subscription belongs to its connection")
        #expect(try await alice.call(API.Tweets.unsubscribe, .init(subscription: subscription)).unsubscribed)
        _ = try await bob.call(API.Tweets.post, .init(text: "after"))
        #expect(await alice.inbox.next(within: .milliseconds(200)) == nil)
        #expect(try await alice.refusal(API.Tweets.unsubscribe, .init(subscription: subscription)).code == -32004)
        await alice.close()
    }
}
