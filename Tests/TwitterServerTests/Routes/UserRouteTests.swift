import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// `users.get` and the follow graph.
struct UserRouteTests: RouteTesting {
    static let routes = [
        API.Users.get.name, API.Users.follow.name, API.Users.unfollow.name, API.Users.followers.name,
        API.Users.following.name,
    ]

    @Test func getShowsCountsAndHowTheAccountRelatesToTheCaller() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        _ = try await bob.call(API.Tweets.post, .init(text: "hi"))
        _ = try await alice.call(API.Users.follow, .init(username: "bob"))
        let seen = try await alice.call(API.Users.get, .init(username: "BOB"))
        #expect(seen.username == "bob")
        #expect(seen.followersCount == 1 && seen.followingCount == 0 && seen.tweetsCount == 1)
        #expect(seen.followedByMe && !seen.followsMe && !seen.mutedByMe && !seen.blockedByMe)
        #expect(try await bob.call(API.Users.get, .init(username: "alice")).followsMe)
        #expect(try await alice.refusal(API.Users.get, .init(username: "nobody")).code == -32004)
        #expect(try await daemon.connect().refusal(API.Users.get, .init(username: "bob")).code == -32001)
    }

    @Test func followIsOnceAndNeverYourselfOrAcrossABlock() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        #expect(try await alice.call(API.Users.follow, .init(username: "bob")).following)
        #expect(try await alice.call(API.Users.follow, .init(username: "bob")).following)
        #expect(try await bob.call(API.Users.get, .init(username: "bob")).followersCount == 1)
        #expect(try await alice.refusal(API.Users.follow, .init(username: "alice")).code == -32602)
        #expect(try await alice.refusal(API.Users.follow, .init(username: "nobody")).code == -32004)
        _ = try await bob.call(API.Users.block, .init(username: "carol"))
        #expect(try await carol.refusal(API.Users.follow, .init(username: "bob")).code == -32003)
        #expect(try await daemon.connect().refusal(API.Users.follow, .init(username: "bob")).code == -32001)
    }

    @Test func followsArePerAccountRateLimitedWhenTheDaemonSaysSo() async throws {
        let daemon = try await InProcessDaemon { $0.community.rates = [.follows: RateLimit(count: 1, period: 86_400)] }
        let alice = try await daemon.signUp("alice")
        _ = try await daemon.signUp("bob")
        _ = try await daemon.signUp("carol")
        _ = try await alice.call(API.Users.follow, .init(username: "bob"))
        #expect(try await alice.refusal(API.Users.follow, .init(username: "carol")).code == -32006)
    }

    @Test func unfollowEndsTheCallersFollowOnly() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        _ = try await alice.call(API.Users.follow, .init(username: "carol"))
        _ = try await bob.call(API.Users.follow, .init(username: "carol"))
        #expect(try await alice.call(API.Users.unfollow, .init(username: "carol")) == .init(following: false))
        #expect(try await alice.call(API.Users.unfollow, .init(username: "carol")) == .init(following: false))
        #expect(try await carol.call(API.Users.followers, .init(username: "carol")).users.map(\.username) == ["bob"])
        #expect(try await alice.refusal(API.Users.unfollow, .init(username: "nobody")).code == -32004)
    }

    @Test func followersAndFollowingPageNewestFirstAndLeaveOutBlockedAccounts() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        _ = try await bob.call(API.Users.follow, .init(username: "alice"))
        _ = try await carol.call(API.Users.follow, .init(username: "alice"))
        _ = try await alice.call(API.Users.follow, .init(username: "carol"))
        let followers = try await bob.call(API.Users.followers, .init(username: "alice"))
        #expect(followers.users.map(\.username) == ["carol", "bob"] && followers.nextCursor == nil)
        let first = try await bob.call(API.Users.followers, .init(username: "alice", limit: 1))
        let second = try await bob.call(API.Users.followers, .init(username: "alice", cursor: first.nextCursor))
        #expect(first.users.map(\.username) == ["carol"] && second.users.map(\.username) == ["bob"])
        #expect(try await bob.call(API.Users.following, .init(username: "alice")).users.map(\.username) == ["carol"])
        _ = try await carol.call(API.Users.block, .init(username: "bob"))
        #expect(try await bob.call(API.Users.followers, .init(username: "alice")).users.map(\.username) == ["bob"])
        #expect(try await bob.call(API.Users.following, .init(username: "alice")).users.isEmpty)
        #expect(try await bob.refusal(API.Users.followers, .init(username: "nobody")).code == -32004)
        #expect(try await bob.refusal(API.Users.following, .init(username: "alice", limit: 0)).code == -32602)
        #expect(try await daemon.connect().refusal(API.Users.following, .init(username: "alice")).code == -32001)
    }
}
