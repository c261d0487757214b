import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// `timeline.*`: home, one account's, everyone's, and their live streams.
struct TimelineRouteTests: RouteTesting {
    static let routes = [
        API.Timelines.home.name, API.Timelines.user.name, API.Timelines.public.name, API.Timelines.subscribe.name,
    ]

    @Test func homeHoldsYourOwnAndYourFolloweesTweetsAndRepostsOnly() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        _ = try await alice.call(API.Users.follow, .init(username: "bob"))
        _ = try await alice.call(API.Tweets.post, .init(text: "alice"))
        let bobs = try await bob.call(API.Tweets.post, .init(text: "bob"))
        let carols = try await carol.call(API.Tweets.post, .init(text: "carol"))
        #expect(try await alice.call(API.Timelines.home, .init()).tweets.map(\.text) == ["bob", "alice"])
        _ = try await bob.call(API.Tweets.repost, .init(id: carols.id))
        let home = try await alice.call(API.Timelines.home, .init()).tweets
        #expect(home.first?.repostOf?.text == "carol", "a followee's repost")
        #expect(try await alice.call(API.Timelines.home, .init(sinceId: bobs.id)).tweets.count == 1)
        _ = try await alice.call(API.Users.unfollow, .init(username: "bob"))
        #expect(try await alice.call(API.Timelines.home, .init()).tweets.map(\.text) == ["alice"])
        #expect(try await carol.call(API.Timelines.home, .init()).tweets.map(\.text) == ["carol"])
        #expect(try await alice.refusal(API.Timelines.home, .init(limit: 0)).code == -32602)
        #expect(try await daemon.connect().refusal(API.Timelines.home, .init()).code == -32001)
    }

    @Test func userHoldsOneAccountsTweetsAndRepostsAndRefusesAnUnknownOne() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let alices = try await alice.call(API.Tweets.post, .init(text: "alice"))
        _ = try await bob.call(API.Tweets.post, .init(text: "bob"))
        _ = try await bob.call(API.Tweets.repost, .init(id: alices.id))
        let bobsPage = try await alice.call(API.Timelines.user, .init(username: "bob")).tweets
        #expect(bobsPage.map(\.author.username) == ["bob", "bob"])
        #expect(bobsPage.first?.repostOf?.id == alices.id)
        #expect(try await bob.call(API.Timelines.user, .init(username: "ALICE")).tweets.map(\.id) == [alices.id])
        #expect(try await alice.refusal(API.Timelines.user, .init(username: "nobody")).code == -32004)
        #expect(try await daemon.connect().refusal(API.Timelines.user, .init(username: "bob")).code == -32001)
    }

    @Test func publicHoldsEveryonesTweetsLikeFetch() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        _ = try await alice.call(API.Tweets.post, .init(text: "alice"))
        _ = try await bob.call(API.Tweets.post, .init(text: "bob"))
        let page = try await alice.call(API.Timelines.public, .init())
        #expect(page.tweets.map(\.text) == ["bob", "alice"])
        #expect(page == (try await alice.call(API.Tweets.fetch, .init())))
        #expect(try await alice.refusal(API.Timelines.public, .init(limit: 201)).code == -32602)
        #expect(try await daemon.connect().refusal(API.Timelines.public, .init()).code == -32001)
    }

    @Test func subscribeToHomeStreamsWhatHomeShows() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        _ = try await alice.call(API.Users.follow, .init(username: "bob"))
        _ = try await alice.call(API.Timelines.subscribe, .init(timeline: "home"))
        _ = try await carol.call(API.Tweets.post, .init(text: "not followed"))
        _ = try await bob.call(API.Tweets.post, .init(text: "followed"))
        let new = try #require(await alice.inbox.next())
        #expect(new["method"] == "tweets.new" && new["params"]?["tweet"]?["text"] == "followed")

        let noName = try await alice.refusal(API.Timelines.subscribe, .init(timeline: "user"))
        #expect(noName.code == -32602)
        #expect(try await alice.refusal(API.Timelines.subscribe, .init(timeline: "mine")).code == -32602)
        let unknown = try await alice.refusal(API.Timelines.subscribe, .init(timeline: "user", username: "nobody"))
        #expect(unknown.code == -32004)
        #expect(try await daemon.connect().refusal(API.Timelines.subscribe, .init(timeline: "public")).code == -32001)
        await alice.close()
    }
}
