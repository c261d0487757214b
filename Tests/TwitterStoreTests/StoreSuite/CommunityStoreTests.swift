import Foundation
import Testing
import TwitterCore

/// Moderation and the account lifecycle, on every backend. Suspensions hide an account from every read and give its
/// part of others' counters back, then restore it all exactly.
struct CommunityStoreTests {
    /// Everything the suspension of bob may change, read as carol (who follows both) sees it.
    struct Reads: Equatable {
        var tweet: Tweet?
        var timelines: [Timeline: [Tweet]]
        var thread: ThreadRows?
        var replyThread: ThreadRows?
        var aliceOverview: UserOverview?
        var bobOverview: UserOverview?
        var aliceFollowers: UserPage
        var likers: UserPage?
        var notifications: [ActivityNotification]
        var unread: Int
        var search: SearchResults
        var tagSearch: SearchResults
        var trending: [TrendingTag]
        var bob: User?
    }

    /// The accounts and tweets of the scene.
    struct Scene {
        var alice: User
        var bob: User
        var carol: User
        var original: Tweet
        var bobReplies: [Tweet]
        var carolReply: Tweet
        var bobTweet: Tweet
        var bobRepost: Tweet
    }

    /// Alice tweets; bob likes, reposts and answers it twice, follows alice and mentions her; carol likes it
    /// too, follows both and answers bob's first reply.
    static func scene(_ fixture: StoreFixture) async throws -> Scene {
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let carol = try await fixture.user("carol")
        let original = try await fixture.post("the original #shared", by: alice)
        _ = try await fixture.likes.like(original.id, by: bob.id)
        _ = try await fixture.likes.like(original.id, by: carol.id)
        let bobRepost = try await fixture.tweets.repost(original.id, by: bob.id)
        let first = try await fixture.post("@alice first answer zebra", by: bob, inReplyTo: original.id)
        let second = try await fixture.post("second answer", by: bob, inReplyTo: original.id)
        let carolReply = try await fixture.post("below bob's answer", by: carol, inReplyTo: first.id)
        _ = try await fixture.follows.follow(alice.id, by: bob.id)
        _ = try await fixture.follows.follow(alice.id, by: carol.id)
        _ = try await fixture.follows.follow(bob.id, by: carol.id)
        let bobTweet = try await fixture.post("hey @alice #bobtag #shared zebra", by: bob)
        return Scene(
            alice: alice, bob: bob, carol: carol, original: original, bobReplies: [first, second],
            carolReply: carolReply, bobTweet: bobTweet, bobRepost: bobRepost)
    }

    static func reads(_ fixture: StoreFixture, _ scene: Scene) async throws -> Reads {
        var timelines: [Timeline: [Tweet]] = [:]
        for timeline: Timeline in [
            .everyone, .author(scene.bob.id), .author(scene.alice.id), .home(scene.carol.id), .tag("bobtag"),
            .tag("shared"),
        ] {
            timelines[timeline] = try await fixture.tweets.tweets(TweetQuery(timeline, limit: 100))
        }
        return Reads(
            tweet: try await fixture.tweets.tweet(id: scene.original.id), timelines: timelines,
            thread: try await fixture.tweets.thread(of: scene.original.id, descendantLimit: 100),
            replyThread: try await fixture.tweets.thread(of: scene.carolReply.id, descendantLimit: 100),
            aliceOverview: try await fixture.follows.overview(of: "alice", viewerID: scene.carol.id),
            bobOverview: try await fixture.follows.overview(of: "bob", viewerID: scene.carol.id),
            aliceFollowers: try await fixture.follows.followers(of: scene.alice.id, page: PageRequest()),
            likers: try await fixture.likes.likers(of: scene.original.id, page: PageRequest()),
            notifications: try await fixture.notifications.notifications(
                of: scene.alice.id, NotificationQuery(limit: 100), hiding: []),
            unread: try await fixture.notifications.unreadCount(of: scene.alice.id, hiding: []),
            search: try await fixture.search.search(
                try SearchQuery(parsing: "zebra"), authorID: nil, hiding: [], limit: 20, from: SearchPosition()),
            tagSearch: try await fixture.search.search(
                try SearchQuery(parsing: "#bobtag"), authorID: nil, hiding: [], limit: 20, from: SearchPosition()),
            trending: try await fixture.search.trending(since: Date().addingTimeInterval(-3600), limit: 10),
            bob: try await fixture.users.user(username: "bob"))
    }

    @Test(arguments: StoreBackend.all) func suspensionHidesEverythingAndUnsuspensionRestoresItExactly(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let scene = try await Self.scene(fixture)
        let (alice, bob) = (scene.alice, scene.bob)
        let before = try await Self.reads(fixture, scene)
        // The scene is what the test thinks it is.
        #expect(before.tweet?.counts == TweetCounts(likes: 2, reposts: 1, replies: 2))
        #expect(before.timelines[.author(bob.id)]?.count == 4)
        #expect(before.search.tweets.count == 2)
        #expect(before.tagSearch.tweets.map(\.id) == [scene.bobTweet.id])
        #expect(before.notifications.contains { $0.from.id == bob.id })
        #expect(before.trending.contains(TrendingTag(tag: "shared", tweetsCount: 2, usersCount: 2)))

        #expect(try await fixture.moderation.suspend(bob.id, reason: "spam", at: Date()))
        #expect(try await !fixture.moderation.suspend(bob.id, reason: "again", at: Date()), "suspended already")
        #expect(try await fixture.moderation.suspension(of: bob.id) == "spam")
        #expect(try await fixture.moderation.suspension(of: alice.id) == nil)
        #expect(fixture.commits.events.contains(.account(.standingChanged(userID: bob.id))))

        let after = try await Self.reads(fixture, scene)
        #expect(after.tweet?.counts == TweetCounts(likes: 1, reposts: 0, replies: 0), "exactly bob's part is gone")
        for (timeline, tweets) in after.timelines {
            let expected = try #require(before.timelines[timeline]).filter { $0.author.id != bob.id }.map(\.id)
            #expect(tweets.map(\.id) == expected, "\(timeline)")
            #expect(!tweets.contains { $0.author.id == bob.id || $0.repostOf?.author.id == bob.id }, "\(timeline)")
        }
        #expect(after.timelines[.author(bob.id)]?.isEmpty == true)
        #expect(after.timelines[.tag("bobtag")]?.isEmpty == true)
        for id in [scene.bobTweet.id, scene.bobRepost.id] + scene.bobReplies.map(\.id) {
            #expect(try await fixture.tweets.tweet(id: id) == nil)
        }
        let thread = try #require(after.thread)
        let carolReply = try #require(try await fixture.tweets.tweet(id: scene.carolReply.id))
        #expect(
            thread.descendants == [
                .deleted(id: scene.bobReplies[0].id, inReplyToID: scene.original.id),
                .deleted(id: scene.bobReplies[1].id, inReplyToID: scene.original.id), .tweet(carolReply),
            ], "bob's answers are placeholders; carol's below them stays")
        let replyThread = try #require(after.replyThread)
        #expect(replyThread.ancestors.map(\.id) == [scene.original.id, scene.bobReplies[0].id])
        #expect(replyThread.ancestors.last == .deleted(id: scene.bobReplies[0].id, inReplyToID: scene.original.id))
        #expect(
            after.aliceOverview?.followersCount == (before.aliceOverview?.followersCount ?? 0) - 1,
            "bob no longer counts as a follower")
        #expect(after.bobOverview == nil)
        #expect(after.aliceFollowers.users.map(\.username) == ["carol"])
        #expect(after.likers?.users.map(\.username) == ["carol"])
        #expect(after.notifications.map(\.id) == before.notifications.filter { $0.from.id != bob.id }.map(\.id))
        #expect(after.notifications.count < before.notifications.count)
        #expect(after.unread == before.unread - before.notifications.filter { $0.from.id == bob.id }.count)
        #expect(after.search.tweets.isEmpty, "both matches are bob's")
        #expect(after.tagSearch.tweets.isEmpty)
        #expect(!after.trending.contains { $0.tag == "bobtag" })
        #expect(after.trending.contains(TrendingTag(tag: "shared", tweetsCount: 1, usersCount: 1)))
        #expect(after.bob == nil)
        #expect(try await fixture.moderation.account(named: "BOB")?.status == .suspended)

        #expect(try await fixture.moderation.unsuspend(bob.id))
        #expect(try await !fixture.moderation.unsuspend(bob.id), "not suspended any more")
        #expect(try await fixture.moderation.suspension(of: bob.id) == nil)
        let restored = try await Self.reads(fixture, scene)
        #expect(restored == before)
    }

    @Test(arguments: StoreBackend.all) func removingASuspendedAuthorsTweetsLeavesTheCountersToTheSuspension(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let original = try await fixture.post("the original", by: alice)
        let first = try await fixture.post("first", by: bob, inReplyTo: original.id)
        _ = try await fixture.post("second", by: bob, inReplyTo: original.id)
        let repost = try await fixture.tweets.repost(original.id, by: bob.id)
        #expect(
            try await fixture.tweets.tweet(id: original.id)?.counts == TweetCounts(likes: 0, reposts: 1, replies: 2))
        #expect(try await fixture.moderation.suspend(bob.id, reason: "spam", at: Date()))
        #expect(try await fixture.moderation.removeTweet(first.id) == "bob")
        #expect(try await fixture.moderation.removeTweet(repost.id) == "bob")
        #expect(
            try await fixture.tweets.tweet(id: original.id)?.counts == TweetCounts(likes: 0, reposts: 0, replies: 0),
            "taken out once, by the suspension")
        #expect(try await fixture.moderation.unsuspend(bob.id))
        #expect(
            try await fixture.tweets.tweet(id: original.id)?.counts == TweetCounts(likes: 0, reposts: 0, replies: 1),
            "the one answer left, and no repost")
        let thread = try #require(try await fixture.tweets.thread(of: original.id, descendantLimit: 10))
        #expect(
            thread.descendants.contains(.deleted(id: first.id, inReplyToID: original.id)),
            "a removed reply is a tombstone")
        await #expect(throws: TwitterError.self) { _ = try await fixture.moderation.removeTweet(first.id) }

        // A moderator's removal of an active author's reply moves the counter like the author's own deletion.
        let third = try await fixture.post("third", by: bob, inReplyTo: original.id)
        #expect(try await fixture.tweets.tweet(id: original.id)?.counts.replies == 2)
        #expect(try await fixture.moderation.removeTweet(third.id) == "bob")
        #expect(try await fixture.tweets.tweet(id: original.id)?.counts.replies == 1)
    }

    @Test(arguments: StoreBackend.all) func deletingASuspendedAccountTakesItsPartOutOnce(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let original = try await fixture.post("the original", by: alice)
        _ = try await fixture.likes.like(original.id, by: alice.id)
        _ = try await fixture.likes.like(original.id, by: bob.id)
        _ = try await fixture.post("an answer", by: bob, inReplyTo: original.id)
        #expect(try await fixture.moderation.suspend(bob.id, reason: "spam", at: Date()))
        try await fixture.accounts.deleteAccount(bob.id, reservingNameUntil: Date().addingTimeInterval(3600))
        #expect(
            try await fixture.tweets.tweet(id: original.id)?.counts == TweetCounts(likes: 1, reposts: 0, replies: 0))
    }

    @Test(arguments: StoreBackend.all) func searchPagesFillPastASuspendedAccountsMatches(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        var alices: [Int64] = []
        for index in 0..<3 { alices.append(try await fixture.post("walrus \(index)", by: alice).id) }
        for index in 0..<3 { _ = try await fixture.post("walrus walrus \(index)", by: bob) }
        #expect(try await fixture.moderation.suspend(bob.id, reason: "spam", at: Date()))
        var found: [Int64] = []
        var position: SearchPosition? = SearchPosition()
        var pages = 0
        while let at = position, pages < 10 {
            let page = try await fixture.search.search(
                try SearchQuery(parsing: "walrus"), authorID: nil, hiding: [], limit: 2, from: at)
            #expect(page.tweets.count == 2 || page.next == nil, "only the last page is short")
            found += page.tweets.map(\.id)
            position = page.next
            pages += 1
        }
        #expect(found.sorted() == alices)
    }
}
