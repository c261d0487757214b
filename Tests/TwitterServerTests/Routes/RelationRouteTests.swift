import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// Mutes and blocks: what each hides, from whom, and the lists of them.
struct RelationRouteTests: RouteTesting {
    static let routes = [
        API.Users.mute.name, API.Users.unmute.name, API.Users.block.name, API.Users.unblock.name,
        API.Users.muted.name, API.Users.blocked.name,
    ]

    @Test func muteHidesAnAccountsTweetsFromTheMuterAloneAndKeepsTheFollow() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        _ = try await alice.call(API.Users.follow, .init(username: "bob"))
        _ = try await bob.call(API.Tweets.post, .init(text: "noise"))
        #expect(try await alice.call(API.Users.mute, .init(username: "bob")) == .init(muted: true))
        #expect(try await alice.call(API.Timelines.home, .init()).tweets.isEmpty)
        #expect(try await alice.call(API.Tweets.fetch, .init()).tweets.isEmpty)
        #expect(try await carol.call(API.Tweets.fetch, .init()).tweets.map(\.text) == ["noise"], "carol still sees it")
        let bobSeen = try await alice.call(API.Users.get, .init(username: "bob"))
        #expect(bobSeen.mutedByMe && bobSeen.followedByMe, "a mute keeps the follow")
        #expect(try await alice.refusal(API.Users.mute, .init(username: "alice")).code == -32602)
        #expect(try await alice.refusal(API.Users.mute, .init(username: "nobody")).code == -32004)
        #expect(try await daemon.connect().refusal(API.Users.mute, .init(username: "bob")).code == -32001)
    }

    @Test func unmuteBringsBackWhatTheMuteHid() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        _ = try await bob.call(API.Tweets.post, .init(text: "noise"))
        _ = try await alice.call(API.Users.mute, .init(username: "bob"))
        #expect(try await alice.call(API.Users.unmute, .init(username: "bob")) == .init(muted: false))
        #expect(try await alice.call(API.Tweets.fetch, .init()).tweets.map(\.text) == ["noise"])
        #expect(try await alice.call(API.Users.unmute, .init(username: "bob")) == .init(muted: false), "idempotent")
        #expect(try await alice.refusal(API.Users.unmute, .init(username: "nobody")).code == -32004)
    }

    @Test func blockHidesBothWaysAndEndsTheFollowsBothWays() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        _ = try await alice.call(API.Users.follow, .init(username: "bob"))
        _ = try await bob.call(API.Users.follow, .init(username: "alice"))
        let alices = try await alice.call(API.Tweets.post, .init(text: "from alice"))
        _ = try await bob.call(API.Tweets.post, .init(text: "from bob"))
        #expect(try await alice.call(API.Users.block, .init(username: "bob")) == .init(blocked: true))
        #expect(try await alice.call(API.Tweets.fetch, .init()).tweets.map(\.text) == ["from alice"])
        #expect(try await bob.call(API.Tweets.fetch, .init()).tweets.map(\.text) == ["from bob"], "both ways")
        let seen = try await alice.call(API.Users.get, .init(username: "bob"))
        #expect(seen.blockedByMe && !seen.followedByMe && !seen.followsMe)
        let reply = try await bob.refusal(API.Tweets.post, .init(text: "hey", inReplyToId: alices.id))
        #expect([-32003, -32004].contains(reply.code), "bob can not answer alice")
        #expect(try await bob.refusal(API.Users.follow, .init(username: "alice")).code == -32003)
        #expect(try await alice.refusal(API.Users.block, .init(username: "alice")).code == -32602)
        #expect(try await alice.refusal(API.Users.block, .init(username: "nobody")).code == -32004)
    }

    @Test func unblockShowsBothAgainButTheEndedFollowsStayEnded() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        _ = try await alice.call(API.Users.follow, .init(username: "bob"))
        _ = try await bob.call(API.Tweets.post, .init(text: "from bob"))
        _ = try await alice.call(API.Users.block, .init(username: "bob"))
        #expect(try await alice.call(API.Users.unblock, .init(username: "bob")) == .init(blocked: false))
        #expect(try await alice.call(API.Tweets.fetch, .init()).tweets.map(\.text) == ["from bob"])
        #expect(try await alice.call(API.Users.get, .init(username: "bob")).followedByMe == false)
        #expect(try await bob.call(API.Users.follow, .init(username: "alice")).following, "bob may follow again")
        #expect(try await alice.refusal(API.Users.unblock, .init(username: "nobody")).code == -32004)
    }

    @Test func mutedAndBlockedListTheCallersOwnNewestFirst() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        for name in ["carol", "dave", "erin"] { _ = try await daemon.signUp(name) }
        _ = try await alice.call(API.Users.mute, .init(username: "carol"))
        _ = try await alice.call(API.Users.mute, .init(username: "dave"))
        _ = try await alice.call(API.Users.block, .init(username: "erin"))
        #expect(try await alice.call(API.Users.muted, .init()).users.map(\.username) == ["dave", "carol"])
        let first = try await alice.call(API.Users.muted, .init(limit: 1))
        #expect(first.users.map(\.username) == ["dave"] && first.nextCursor != nil)
        #expect(try await alice.call(API.Users.blocked, .init()).users.map(\.username) == ["erin"])
        #expect(try await bob.call(API.Users.muted, .init()).users.isEmpty, "alice's mutes are hers")
        #expect(try await bob.call(API.Users.blocked, .init()).users.isEmpty)
        #expect(try await alice.refusal(API.Users.blocked, .init(cursor: "garbage")).code == -32602)
        #expect(try await daemon.connect().refusal(API.Users.muted, .init()).code == -32001)
    }
}
