import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// `profile.pin` and `profile.unpin`: your own tweet only, shown by `users.get` and `timeline.user`'s first page.
struct PinRouteTests: RouteTesting {
    static let routes = [API.Profiles.pin.name, API.Profiles.unpin.name]

    @Test func aPinnedTweetHeadsTheProfileAndTheFirstPageUntilUnpinnedOrDeleted() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let first = try await alice.call(API.Tweets.post, .init(text: "pin me"))
        let second = try await alice.call(API.Tweets.post, .init(text: "newer"))
        #expect(try await bob.call(API.Users.get, .init(username: "alice")).pinnedTweet == nil)
        #expect(
            try await alice.call(API.Profiles.pin, .init(id: first.id)) == .init(pinned: true, pinnedTweetId: first.id))
        _ = try await bob.call(API.Tweets.like, .init(id: first.id))

        let seen = try await bob.call(API.Users.get, .init(username: "alice"))
        #expect(seen.pinnedTweet?.id == first.id)
        #expect(seen.pinnedTweet?.likedByMe == true, "with the reader's marks")
        let page = try await bob.call(API.Timelines.user, .init(username: "alice", limit: 1))
        #expect(page.pinnedTweet?.id == first.id && page.tweets.map(\.id) == [second.id])
        let older = try await bob.call(API.Timelines.user, .init(username: "alice", maxId: second.id))
        #expect(older.pinnedTweet == nil, "the first page only")
        #expect(try await alice.call(API.Timelines.user, .init(username: "alice")).pinnedTweet?.likedByMe == false)

        #expect(try await alice.call(API.Profiles.pin, .init(id: second.id)).pinnedTweetId == second.id, "replaced")
        #expect(try await bob.call(API.Users.get, .init(username: "alice")).pinnedTweet?.id == second.id)
        _ = try await alice.call(API.Tweets.delete, .init(id: second.id))
        #expect(try await bob.call(API.Users.get, .init(username: "alice")).pinnedTweet == nil, "deleted: none")

        _ = try await alice.call(API.Profiles.pin, .init(id: first.id))
        #expect(try await alice.call(API.Profiles.unpin) == .init(pinned: false, pinnedTweetId: nil))
        #expect(try await alice.call(API.Profiles.unpin) == .init(pinned: false, pinnedTweetId: nil))
        #expect(try await bob.call(API.Timelines.user, .init(username: "alice")).pinnedTweet == nil)
        #expect(try await daemon.connect().refusal(API.Profiles.unpin).code == -32001)
    }

    @Test func someoneElsesTweetARepostAndAHiddenTweetAreRefused() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let bobs = try await bob.call(API.Tweets.post, .init(text: "bob's"))
        let repost = try await alice.call(API.Tweets.repost, .init(id: bobs.id))
        #expect(try await alice.refusal(API.Profiles.pin, .init(id: bobs.id)).code == -32003, "someone else's")
        #expect(try await alice.refusal(API.Profiles.pin, .init(id: repost.id)).code == -32003, "a repost")
        #expect(try await alice.refusal(API.Profiles.pin, .init(id: bobs.id + 100)).code == -32004)
        #expect(try await bob.call(API.Users.get, .init(username: "bob")).pinnedTweet == nil)

        _ = try await bob.call(API.Profiles.pin, .init(id: bobs.id))
        _ = try await bob.call(API.Users.block, .init(username: "alice"))
        #expect(try await alice.refusal(API.Profiles.pin, .init(id: bobs.id)).code == -32004, "as if absent")
        let carol = try await daemon.signUp("carol")
        #expect(try await carol.call(API.Users.get, .init(username: "bob")).pinnedTweet?.id == bobs.id)
        _ = try await carol.call(API.Users.block, .init(username: "bob"))
        #expect(try await carol.call(API.Users.get, .init(username: "bob")).pinnedTweet == nil, "hidden by a block")
        #expect(try await carol.call(API.Timelines.user, .init(username: "bob")).pinnedTweet == nil)
    }
}
