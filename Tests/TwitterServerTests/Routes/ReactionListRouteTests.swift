import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// Who reposted a tweet, and the tweets one likes: pages by cursor, each as the caller may see it.
struct ReactionListRouteTests: RouteTesting {
    static let routes = [API.Tweets.repostedBy.name, API.Tweets.liked.name]

    @Test func repostersNewestFirstInPagesAndRefusedAcrossABlock() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        let original = try await alice.call(API.Tweets.post, .init(text: "share me"))
        let bobs = try await bob.call(API.Tweets.repost, .init(id: original.id))
        _ = try await carol.call(API.Tweets.repost, .init(id: original.id))
        let first = try await alice.call(API.Tweets.repostedBy, .init(id: original.id, limit: 1))
        #expect(first.users.map(\.username) == ["carol"])
        let rest = try await alice.call(
            API.Tweets.repostedBy, .init(id: bobs.id, limit: 1, cursor: try #require(first.nextCursor)))
        #expect(rest.users.map(\.username) == ["bob"] && rest.nextCursor == nil)
        // A mute leaves the muted reposter out; a block makes the tweet, and its reposters, absent.
        _ = try await alice.call(API.Users.mute, .init(username: "carol"))
        #expect(try await alice.call(API.Tweets.repostedBy, .init(id: original.id)).users.map(\.username) == ["bob"])
        _ = try await alice.call(API.Users.block, .init(username: "carol"))
        #expect(try await carol.refusal(API.Tweets.repostedBy, .init(id: original.id)).code == -32004)
        #expect(try await bob.refusal(API.Tweets.repostedBy, .init(id: 424_242)).code == -32004)
    }

    @Test func likedTweetsNewestLikeFirstLeavingOutWhatIsHidden() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let first = try await alice.call(API.Tweets.post, .init(text: "first"))
        let second = try await alice.call(API.Tweets.post, .init(text: "second"))
        _ = try await bob.call(API.Tweets.like, .init(id: second.id))
        _ = try await bob.call(API.Tweets.like, .init(id: first.id))
        let page = try await bob.call(API.Tweets.liked, .init(limit: 1))
        #expect(page.tweets.map(\.id) == [first.id])
        #expect(page.tweets.first?.likedByMe == true)
        let next = try await bob.call(API.Tweets.liked, .init(limit: 1, cursor: try #require(page.nextCursor)))
        #expect(next.tweets.map(\.id) == [second.id] && next.nextCursor == nil)
        #expect(try await alice.call(API.Tweets.liked, .init()).tweets.isEmpty, "one's own likes only")
        _ = try await bob.call(API.Users.mute, .init(username: "alice"))
        #expect(try await bob.call(API.Tweets.liked, .init()).tweets.isEmpty)
        #expect(try await bob.refusal(API.Tweets.liked, .init(cursor: "not a cursor")).code == -32602)
    }
}
