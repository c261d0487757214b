import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// Replies and threads, likes and reposts.
struct ConversationRouteTests: RouteTesting {
    static let routes = [
        API.Tweets.thread.name, API.Tweets.like.name, API.Tweets.unlike.name, API.Tweets.likedBy.name,
        API.Tweets.repost.name, API.Tweets.unrepost.name,
    ]

    @Test func threadShowsAncestorsAndDescendantsAndKeepsADeletedOnesPlace() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let root = try await alice.call(API.Tweets.post, .init(text: "root"))
        let reply = try await bob.call(API.Tweets.post, .init(text: "reply", inReplyToId: root.id))
        let answer = try await alice.call(API.Tweets.post, .init(text: "answer", inReplyToId: reply.id))
        #expect(reply.inReplyToID == root.id)

        let around = try await bob.call(API.Tweets.thread, .init(id: reply.id))
        #expect(around.ancestors.map(\.id) == [root.id])
        #expect(around.tweet.id == reply.id)
        #expect(around.descendants.map(\.id) == [answer.id])
        #expect(try await alice.call(API.Tweets.get, .init(id: root.id)).counts.replies == 1)

        _ = try await bob.call(API.Tweets.delete, .init(id: reply.id))
        let kept = try await alice.call(API.Tweets.thread, .init(id: answer.id))
        #expect(kept.ancestors.map(\.id) == [root.id, reply.id])
        #expect(kept.ancestors.last == .deleted(id: reply.id, inReplyToId: root.id))
        #expect(try await alice.refusal(API.Tweets.thread, .init(id: root.id + 100)).code == -32004)
        #expect(try await daemon.connect().refusal(API.Tweets.thread, .init(id: root.id)).code == -32001)
    }

    @Test func likeCountsEachAccountOnceAndNotATweetThatIsNotThere() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let tweet = try await alice.call(API.Tweets.post, .init(text: "like me"))
        #expect(try await bob.call(API.Tweets.like, .init(id: tweet.id)) == .init(liked: true, likesCount: 1))
        #expect(try await bob.call(API.Tweets.like, .init(id: tweet.id)) == .init(liked: true, likesCount: 1))
        #expect(try await alice.call(API.Tweets.like, .init(id: tweet.id)).likesCount == 2)
        #expect(try await bob.call(API.Tweets.get, .init(id: tweet.id)).likedByMe)
        #expect(try await bob.refusal(API.Tweets.like, .init(id: tweet.id + 100)).code == -32004)
        _ = try await alice.call(API.Users.block, .init(username: "bob"))
        let blocked = try await bob.refusal(API.Tweets.like, .init(id: tweet.id))
        #expect([-32003, -32004].contains(blocked.code), "no like across a block: \(blocked)")
    }

    @Test func unlikeTakesOnlyTheCallersLikeBack() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let tweet = try await alice.call(API.Tweets.post, .init(text: "like me"))
        _ = try await alice.call(API.Tweets.like, .init(id: tweet.id))
        _ = try await bob.call(API.Tweets.like, .init(id: tweet.id))
        #expect(try await bob.call(API.Tweets.unlike, .init(id: tweet.id)) == .init(liked: false, likesCount: 1))
        #expect(try await bob.call(API.Tweets.unlike, .init(id: tweet.id)) == .init(liked: false, likesCount: 1))
        #expect(try await alice.call(API.Tweets.get, .init(id: tweet.id)).likedByMe, "alice's like stays")
        #expect(try await bob.refusal(API.Tweets.unlike, .init(id: tweet.id + 100)).code == -32004)
    }

    @Test func likedByListsTheLikersNewestFirstButNotAcrossABlock() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        let tweet = try await alice.call(API.Tweets.post, .init(text: "like me"))
        _ = try await bob.call(API.Tweets.like, .init(id: tweet.id))
        _ = try await carol.call(API.Tweets.like, .init(id: tweet.id))
        let likers = try await alice.call(API.Tweets.likedBy, .init(id: tweet.id))
        #expect(likers.users.map(\.username) == ["carol", "bob"])
        let first = try await alice.call(API.Tweets.likedBy, .init(id: tweet.id, limit: 1))
        let rest = try await alice.call(API.Tweets.likedBy, .init(id: tweet.id, cursor: first.nextCursor))
        #expect(first.users.map(\.username) == ["carol"] && rest.users.map(\.username) == ["bob"])
        #expect(try await alice.refusal(API.Tweets.likedBy, .init(id: tweet.id, cursor: "garbage")).code == -32602)
        #expect(try await alice.refusal(API.Tweets.likedBy, .init(id: tweet.id + 100)).code == -32004)
        _ = try await alice.call(API.Users.block, .init(username: "carol"))
        #expect(try await carol.refusal(API.Tweets.likedBy, .init(id: tweet.id)).code == -32004)
        #expect(try await alice.call(API.Tweets.likedBy, .init(id: tweet.id)).users.map(\.username) == ["bob"])
    }

    @Test func repostIsATweetOfTheCallersOnceAndNotOfATweetThatIsNotThere() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let original = try await alice.call(API.Tweets.post, .init(text: "share me"))
        let repost = try await bob.call(API.Tweets.repost, .init(id: original.id))
        #expect(repost.author.username == "bob" && repost.repostOf?.id == original.id)
        #expect(repost.repostedByMe || repost.repostOf?.repostedByMe == true)
        #expect(try await bob.call(API.Tweets.repost, .init(id: original.id)).id == repost.id, "reposting again")
        #expect(try await bob.call(API.Tweets.repost, .init(id: repost.id)).id == repost.id, "a repost's original")
        #expect(try await alice.call(API.Tweets.get, .init(id: original.id)).counts.reposts == 1)
        #expect(try await bob.refusal(API.Tweets.repost, .init(id: original.id + 100)).code == -32004)
        #expect(try await daemon.connect().refusal(API.Tweets.repost, .init(id: original.id)).code == -32001)
    }

    @Test func unrepostDeletesTheCallersRepostOnly() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        let original = try await alice.call(API.Tweets.post, .init(text: "share me"))
        let bobs = try await bob.call(API.Tweets.repost, .init(id: original.id))
        _ = try await carol.call(API.Tweets.repost, .init(id: original.id))
        #expect(try await bob.call(API.Tweets.unrepost, .init(id: original.id)) == .init(reposted: false))
        #expect(try await alice.refusal(API.Tweets.get, .init(id: bobs.id)).code == -32004)
        #expect(try await alice.call(API.Tweets.get, .init(id: original.id)).counts.reposts == 1, "carol's stays")
        #expect(try await bob.refusal(API.Tweets.unrepost, .init(id: original.id + 100)).code == -32004)
    }
}
