import Foundation
import Testing
import TwitterCore

/// Follows, home timelines, replies and threads, likes and reposts, on every backend.
struct SocialStoreTests {
    @Test(arguments: StoreBackend.all) func followsAreIdempotentPagedAndCounted(_ backend: StoreBackend) async throws {
        let fixture = try await backend.fixture()
        let alice = try await fixture.user("alice")
        var others: [User] = []
        for index in 0..<5 { others.append(try await fixture.user("user\(index)")) }
        #expect(try await fixture.follows.follow(others[0].id, by: alice.id))
        #expect(try await !fixture.follows.follow(others[0].id, by: alice.id), "following again changes nothing")
        for other in others { _ = try await fixture.follows.follow(alice.id, by: other.id) }
        #expect(fixture.commits.events.contains(.relation(.followed(followerID: alice.id, followeeID: others[0].id))))

        // Newest follow first, two at a time, to the end.
        var names: [String] = []
        var before: Int64?
        repeat {
            let page = try await fixture.follows.followers(of: alice.id, page: PageRequest(limit: 2, before: before))
            #expect(page.users.count <= 2)
            names += page.users.map(\.username)
            before = page.next
        } while before != nil
        #expect(names == ["user4", "user3", "user2", "user1", "user0"])
        let following = try await fixture.follows.following(of: alice.id, page: PageRequest())
        #expect(following.users.map(\.username) == ["user0"])
        #expect(following.next == nil)

        let seen = try #require(try await fixture.follows.overview(of: "ALICE", viewerID: others[0].id))
        #expect(seen.followersCount == 5)
        #expect(seen.followingCount == 1)
        #expect(seen.followedByMe && seen.followsMe)
        let byStranger = try #require(try await fixture.follows.overview(of: "alice", viewerID: others[1].id))
        #expect(byStranger.followedByMe && !byStranger.followsMe)
        #expect(try await fixture.follows.overview(of: "nobody", viewerID: alice.id) == nil)
        // What the read model keeps for the web's profile page: the counts alone, and the overview without them.
        #expect(try await fixture.follows.counts(of: alice.id) == seen.counts)
        let uncounted = try #require(try await fixture.follows.overview(of: "alice", viewerID: 0, counted: false))
        #expect(uncounted.counts == AccountCounts(followers: 0, following: 0, tweets: 0) && uncounted.bio == seen.bio)
        #expect(try await fixture.follows.counts(of: 999_999) == AccountCounts(followers: 0, following: 0, tweets: 0))

        #expect(try await fixture.follows.unfollow(others[0].id, by: alice.id))
        #expect(try await !fixture.follows.unfollow(others[0].id, by: alice.id))
        #expect(try await fixture.follows.followeeIDs(of: alice.id).isEmpty)
        #expect(fixture.commits.events.last == .relation(.unfollowed(followerID: alice.id, followeeID: others[0].id)))
    }

    @Test(arguments: StoreBackend.all) func homeShowsOwnAndFollowedTweetsAndReposts(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let (alice, bob, carol) = (
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("carol")
        )
        _ = try await fixture.follows.follow(bob.id, by: alice.id)
        let own = try await fixture.post("mine", by: alice)
        let followed = try await fixture.post("from bob", by: bob)
        let stranger = try await fixture.post("from carol", by: carol)
        let repost = try await fixture.tweets.repost(stranger.id, by: bob.id)
        let home = try await fixture.tweets.tweets(TweetQuery(.home(alice.id)))
        #expect(home.map(\.id) == [repost.id, followed.id, own.id])
        #expect(home.first?.repostOf?.id == stranger.id, "a repost carries its original")
        let catchUp = try await fixture.tweets.tweets(after: own.id, in: .home(alice.id), limit: 10)
        #expect(catchUp.map(\.id) == [followed.id, repost.id])
        _ = try await fixture.follows.unfollow(bob.id, by: alice.id)
        #expect(try await fixture.tweets.tweets(TweetQuery(.home(alice.id))).map(\.id) == [own.id])
    }

    @Test(arguments: StoreBackend.all) func repliesAreCountedAndAMissingParentFailsOnlyItsPost(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let alice = try await fixture.user("alice")
        let root = try await fixture.post("root", by: alice)
        // Queued together, so they share a commit: the bad reply must not take the good one down.
        let good = fixture.tweets.queued(PostDraft(text: "good", by: alice.id, inReplyToID: root.id))
        let bad = fixture.tweets.queued(PostDraft(text: "bad", by: alice.id, inReplyToID: 999_999))
        let reply = try await good.value
        #expect(reply.inReplyToID == root.id)
        await #expect(throws: TwitterError.notFound("Tweet 999999")) { _ = try await bad.value }
        #expect(try await fixture.tweets.tweet(id: root.id)?.counts.replies == 1)
        #expect(fixture.commits.events.contains(.tweet(.counted(id: root.id, TweetCounts(replies: 1)))))
    }

    @Test(arguments: StoreBackend.all) func threadsKeepTheirShapeThroughDeletions(_ backend: StoreBackend) async throws
    {
        let fixture = try await backend.fixture()
        let alice = try await fixture.user("alice")
        //   root ─ a ─ a1
        //        │   └ a2
        //        └ b
        let root = try await fixture.post("root", by: alice)
        let a = try await fixture.post("a", by: alice, inReplyTo: root.id)
        let b = try await fixture.post("b", by: alice, inReplyTo: root.id)
        let a1 = try await fixture.post("a1", by: alice, inReplyTo: a.id)
        let a2 = try await fixture.post("a2", by: alice, inReplyTo: a.id)
        let rows = try #require(try await fixture.tweets.thread(of: a1.id, descendantLimit: 200))
        #expect(rows.ancestors.map(\.id) == [root.id, a.id])
        let whole = Conversation(try #require(try await fixture.tweets.thread(of: root.id, descendantLimit: 200)))
        #expect(whole.descendants.map(\.id) == [a.id, a1.id, a2.id, b.id], "depth first, oldest sibling first")
        #expect(!whole.truncated)

        try await fixture.tweets.deleteTweet(id: a.id, by: alice.id)
        #expect(try await fixture.tweets.tweet(id: root.id)?.counts.replies == 1)
        let after = Conversation(try #require(try await fixture.tweets.thread(of: root.id, descendantLimit: 200)))
        #expect(after.descendants.map(\.id) == [a.id, a1.id, a2.id, b.id])
        #expect(after.descendants.first == .deleted(id: a.id, inReplyToID: root.id))
        let fromLeaf = try #require(try await fixture.tweets.thread(of: a2.id, descendantLimit: 200))
        #expect(
            fromLeaf.ancestors == [
                .tweet(try #require(try await fixture.tweets.tweet(id: root.id))),
                .deleted(id: a.id, inReplyToID: root.id),
            ])
        let cut = Conversation(try #require(try await fixture.tweets.thread(of: root.id, descendantLimit: 2)), limit: 2)
        #expect(cut.descendants.count == 2 && cut.truncated)
    }

    @Test(arguments: StoreBackend.all) func likesAreIdempotentCountedAndListed(_ backend: StoreBackend) async throws {
        let fixture = try await backend.fixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let tweet = try await fixture.post("likeable", by: alice)
        #expect(try await fixture.likes.like(tweet.id, by: bob.id).likes == 1)
        #expect(try await fixture.likes.like(tweet.id, by: bob.id).likes == 1, "liking again changes nothing")
        #expect(try await fixture.likes.like(tweet.id, by: alice.id).likes == 2)
        let likers = try #require(try await fixture.likes.likers(of: tweet.id, page: PageRequest()))
        #expect(likers.users.map(\.username) == ["alice", "bob"])
        #expect(try await fixture.likes.marks(of: bob.id).liked == [tweet.id])
        #expect(try await fixture.likes.unlike(tweet.id, by: bob.id).likes == 1)
        #expect(try await fixture.likes.unlike(tweet.id, by: bob.id).likes == 1)
        #expect(
            fixture.commits.events.suffix(2) == [
                .tweet(.unliked(id: tweet.id, userID: bob.id)), .tweet(.counted(id: tweet.id, TweetCounts(likes: 1))),
            ])
        await #expect(throws: TwitterError.notFound("Tweet 424242")) {
            _ = try await fixture.likes.like(424_242, by: bob.id)
        }
        #expect(try await fixture.likes.likers(of: 424_242, page: PageRequest()) == nil)
    }

    @Test(arguments: StoreBackend.all) func repostsAreOnePerUserAndGoWithTheirOriginal(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let original = try await fixture.post("original", by: alice)
        let repost = try await fixture.tweets.repost(original.id, by: bob.id)
        #expect(repost.text.isEmpty && repost.author.id == bob.id)
        #expect(repost.repostOf?.id == original.id)
        #expect(repost.repostOf?.counts.reposts == 1)
        #expect(
            try await fixture.tweets.repost(repost.id, by: bob.id).id == repost.id,
            "reposting a repost reposts its original, once")
        #expect(try await fixture.likes.marks(of: bob.id).reposted == [original.id])
        #expect(try await fixture.tweets.unrepost(original.id, by: bob.id))
        #expect(try await !fixture.tweets.unrepost(original.id, by: bob.id))
        #expect(try await fixture.tweets.tweet(id: original.id)?.counts.reposts == 0)

        let again = try await fixture.tweets.repost(original.id, by: bob.id)
        _ = try await fixture.likes.like(original.id, by: bob.id)
        try await fixture.tweets.deleteTweet(id: original.id, by: alice.id)
        #expect(try await fixture.tweets.tweet(id: again.id) == nil, "the repost went with its original")
        #expect(try await fixture.tweets.tweets(TweetQuery()).isEmpty)
        let deletions = fixture.commits.events.filter { if case .tweet(.deleted) = $0 { true } else { false } }
        #expect(
            deletions.suffix(2) == [
                .tweet(.deleted(id: again.id, authorID: bob.id, repostOf: original.id)),
                .tweet(.deleted(id: original.id, authorID: alice.id, repostOf: nil)),
            ])
    }

    @Test(arguments: StoreBackend.all) func repostersAndLikedTweetsAreListedNewestFirst(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let carol = try await fixture.user("carol")
        let original = try await fixture.post("original", by: alice)
        let other = try await fixture.post("other", by: alice)
        let bobs = try await fixture.tweets.repost(original.id, by: bob.id)
        _ = try await fixture.tweets.repost(original.id, by: carol.id)
        // The original's reposters, newest first, by its id or a repost's; one page of one, then the next.
        let first = try #require(try await fixture.likes.reposters(of: bobs.id, page: PageRequest(limit: 1)))
        #expect(first.users.map(\.username) == ["carol"])
        let rest = try #require(
            try await fixture.likes.reposters(of: original.id, page: PageRequest(limit: 1, before: first.next)))
        #expect(rest.users.map(\.username) == ["bob"] && rest.next == nil)
        let hiding = try #require(
            try await fixture.likes.reposters(of: original.id, page: PageRequest(hiding: [carol.id])))
        #expect(hiding.users.map(\.username) == ["bob"])
        #expect(try await fixture.likes.reposters(of: other.id, page: PageRequest())?.users == [])
        #expect(try await fixture.likes.reposters(of: 424_242, page: PageRequest()) == nil)

        _ = try await fixture.likes.like(original.id, by: bob.id)
        _ = try await fixture.likes.like(other.id, by: bob.id)
        let liked = try await fixture.likes.liked(by: bob.id, page: PageRequest(limit: 1))
        #expect(liked.tweets.map(\.id) == [other.id])
        let older = try await fixture.likes.liked(by: bob.id, page: PageRequest(limit: 1, before: liked.next))
        #expect(older.tweets.map(\.id) == [original.id] && older.next == nil)
        #expect(try await fixture.likes.liked(by: bob.id, page: PageRequest(hiding: [alice.id])).tweets.isEmpty)
        #expect(try await fixture.likes.liked(by: carol.id, page: PageRequest()).tweets.isEmpty)
    }
}
