import Foundation
import Testing
import TwitterCore

/// Mentions, notifications, tags, search, mutes and blocks, on every backend.
struct ReachStoreTests {
    static func kinds(_ notifications: [ActivityNotification]) -> [String] {
        notifications.map { "\($0.type.rawValue):\($0.from.username):\($0.tweet?.id ?? 0)" }
    }

    @Test(arguments: StoreBackend.all) func eachActionNotifiesOnceAndUndoingWithdrawsIt(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let first = try await fixture.post("hello @bob and @BOB and @nobody", by: alice)
        #expect(first.entities.mentions.map(\.username) == ["bob", "bob"], "existing accounts only, as spelled")
        let reply = try await fixture.post("@alice yes", by: bob, inReplyTo: first.id)
        _ = try await fixture.likes.like(first.id, by: bob.id)
        let repost = try await fixture.tweets.repost(first.id, by: bob.id)
        _ = try await fixture.follows.follow(alice.id, by: bob.id)
        _ = try await fixture.likes.like(first.id, by: alice.id)  // one's own: no notification
        _ = try await fixture.post("talking to myself @alice", by: alice)
        let toAlice = try await fixture.notifications.notifications(of: alice.id, NotificationQuery(), hiding: [])
        #expect(
            Self.kinds(toAlice) == [
                "follow:bob:0", "repost:bob:\(repost.id)", "like:bob:\(first.id)", "reply:bob:\(reply.id)",
            ], "newest first; the reply that also mentions notifies once")
        #expect(
            Self.kinds(try await fixture.notifications.notifications(of: bob.id, NotificationQuery(), hiding: []))
                == ["mention:alice:\(first.id)"])
        #expect(
            fixture.commits.events.contains { if case .account(.notified(_, alice.id)) = $0 { true } else { false } })
        #expect(try await fixture.notifications.unreadCount(of: alice.id, hiding: []) == 4)
        #expect(try await fixture.notifications.unreadCount(of: alice.id, hiding: [bob.id]) == 0)
        let likes = NotificationQuery(types: [.like, .follow])
        #expect(
            Self.kinds(try await fixture.notifications.notifications(of: alice.id, likes, hiding: []))
                == ["follow:bob:0", "like:bob:\(first.id)"])

        // Reading moves a marker that never goes back.
        let newest = try #require(toAlice.first?.id)
        #expect(try await fixture.notifications.markRead(of: alice.id, upTo: toAlice[2].id, hiding: []) == 2)
        #expect(try await fixture.notifications.markRead(of: alice.id, upTo: 1, hiding: []) == 2)
        let read = try await fixture.notifications.notifications(of: alice.id, NotificationQuery(), hiding: [])
        #expect(read.map(\.read) == [false, false, true, true])
        #expect(try await fixture.notifications.markRead(of: alice.id, upTo: Int64.max, hiding: []) == 0)
        let oneMore = try await fixture.post("@alice one more", by: bob)
        #expect(
            try await fixture.notifications.unreadCount(of: alice.id, hiding: []) == 1,
            "marking past the newest there was leaves later ones unread")
        #expect(try await fixture.notifications.markRead(of: alice.id, upTo: newest + 100, hiding: []) == 0)

        // Undoing each action withdraws its notification.
        _ = try await fixture.likes.unlike(first.id, by: bob.id)
        _ = try await fixture.tweets.unrepost(first.id, by: bob.id)
        _ = try await fixture.follows.unfollow(alice.id, by: bob.id)
        try await fixture.tweets.deleteTweet(id: reply.id, by: bob.id)
        try await fixture.tweets.deleteTweet(id: oneMore.id, by: bob.id)
        try await fixture.tweets.deleteTweet(id: first.id, by: alice.id)
        #expect(try await fixture.notifications.notifications(of: alice.id, NotificationQuery(), hiding: []).isEmpty)
        #expect(try await fixture.notifications.notifications(of: bob.id, NotificationQuery(), hiding: []).isEmpty)
    }

    @Test(arguments: StoreBackend.all) func blocksRefuseInteractionsBothWaysAndEndFollows(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let tweet = try await fixture.post("mine", by: alice)
        let his = try await fixture.post("his", by: bob)
        _ = try await fixture.follows.follow(alice.id, by: bob.id)
        _ = try await fixture.follows.follow(bob.id, by: alice.id)
        #expect(try await fixture.relations.block(bob.id, by: alice.id))
        #expect(try await !fixture.relations.block(bob.id, by: alice.id), "blocking again changes nothing")
        #expect(try await fixture.follows.followeeIDs(of: bob.id).isEmpty, "follows end both ways")
        #expect(try await fixture.follows.followeeIDs(of: alice.id).isEmpty)
        // The other's tweets are as if absent.
        let forbidden: (any Error) -> Bool = { ($0 as? TwitterError)?.kind == .notFound }
        await #expect(throws: TwitterError.self) { _ = try await fixture.follows.follow(alice.id, by: bob.id) }
        for (actor, target) in [(bob, tweet), (alice, his)] {
            await #expect { _ = try await fixture.likes.like(target.id, by: actor.id) } throws: { forbidden($0) }
            await #expect { _ = try await fixture.tweets.repost(target.id, by: actor.id) } throws: { forbidden($0) }
            await #expect { _ = try await fixture.post("hi", by: actor, inReplyTo: target.id) } throws: {
                forbidden($0)
            }
        }
        _ = try await fixture.post("@alice you can not reach me", by: bob)
        #expect(try await fixture.notifications.unreadCount(of: alice.id, hiding: []) == 0, "no mention across a block")
        #expect(
            try await fixture.relations.hiddenAccounts(of: bob.id) == HiddenAccounts(blockedBy: [alice.id]))
        #expect(try await fixture.relations.blocked(by: alice.id, page: PageRequest()).users.map(\.username) == ["bob"])
        #expect(try await fixture.relations.unblock(bob.id, by: alice.id))
        #expect(try await fixture.follows.followeeIDs(of: bob.id).isEmpty, "unblocking restores no follow")
        #expect(try await fixture.follows.follow(alice.id, by: bob.id))
        #expect(
            fixture.commits.events.suffix(8).contains(.relation(.unblocked(blockerID: alice.id, blockedID: bob.id))))
    }

    @Test(arguments: StoreBackend.all) func mutesKeepFollowsAndAreListed(_ backend: StoreBackend) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        _ = try await fixture.follows.follow(bob.id, by: alice.id)
        #expect(try await fixture.relations.mute(bob.id, by: alice.id))
        #expect(try await fixture.follows.followeeIDs(of: alice.id) == [bob.id])
        #expect(try await fixture.relations.muted(by: alice.id, page: PageRequest()).users.map(\.username) == ["bob"])
        let overview = try #require(try await fixture.follows.overview(of: "bob", viewerID: alice.id))
        #expect(overview.mutedByMe && !overview.blockedByMe)
        let post = try await fixture.post("hidden?", by: bob)
        let home = try await fixture.tweets.tweets(TweetQuery(.home(alice.id), hiding: [bob.id]))
        #expect(!home.contains { $0.id == post.id })
        #expect(try await fixture.relations.unmute(bob.id, by: alice.id))
        #expect(try await !fixture.relations.unmute(bob.id, by: alice.id))
        #expect(try await fixture.relations.hiddenAccounts(of: alice.id).isEmpty)
    }

    @Test(arguments: StoreBackend.all) func searchFindsWordsPhrasesAuthorsTagsAndLeavesOutExclusions(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let cafe = try await fixture.post("Le Café est fermé #Paris", by: alice)
        let roast = try await fixture.post("dark roast coffee, the darkest", by: bob)
        let instant = try await fixture.post("instant coffee is not dark roast", by: bob)
        let other = try await fixture.post("coffee coffee coffee", by: alice)
        func found(_ text: String, author: Int64? = nil, hiding: Set<Int64> = []) async throws -> [Int64] {
            try await fixture.search.search(
                try SearchQuery(parsing: text), authorID: author, hiding: hiding, limit: 20, from: SearchPosition()
            ).tweets.map(\.id)
        }
        #expect(try await found("cafe FERME") == [cafe.id], "diacritics and case ignored")
        #expect(try await Set(found("dark roast")) == [roast.id, instant.id])
        #expect(try await found(#""roast coffee""#) == [roast.id], "a phrase keeps its order")
        #expect(try await found("coffee -instant -\"dark roast\"") == [other.id])
        #expect(try await found("coffee", author: alice.id) == [other.id])
        #expect(try await found("#paris") == [cafe.id])
        #expect(try await found("from:alice", author: alice.id) == [other.id, cafe.id], "newest first without words")
        #expect(try await found("coffee", hiding: [bob.id]) == [other.id])
        #expect(try await found("coffee").first == other.id, "the best match first")
        #expect(try await found(#"NEAR OR AND "x" *"#).isEmpty, "query words are never FTS syntax")
        let first = try await fixture.search.search(
            try SearchQuery(parsing: "coffee"), authorID: nil, hiding: [], limit: 1, from: SearchPosition())
        let next = try #require(first.next)
        let second = try await fixture.search.search(
            try SearchQuery(parsing: "coffee"), authorID: nil, hiding: [], limit: 1, from: next)
        #expect(first.tweets.map(\.id) == [other.id] && second.tweets.count == 1 && second.tweets[0].id != other.id)
        try await fixture.tweets.deleteTweet(id: other.id, by: alice.id)
        #expect(try await !found("coffee").contains(other.id), "a deleted tweet leaves the index")

        let people = try await fixture.search.users(withPrefix: "AL", hiding: [], limit: 10)
        #expect(people.map(\.username) == ["alice"])
        #expect(try await fixture.search.users(withPrefix: "%", hiding: [], limit: 10).isEmpty, "LIKE is escaped")
        #expect(try await fixture.search.users(withPrefix: "a", hiding: [alice.id], limit: 10).isEmpty)
    }

    @Test(arguments: StoreBackend.all) func tagsPageAndTrendByDistinctAccounts(_ backend: StoreBackend) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let first = try await fixture.post("#Swift is nice #swift", by: alice)
        let second = try await fixture.post("so is #ＳＷＩＦＴ", by: bob)
        for _ in 0..<3 { _ = try await fixture.post("#rust #Rust", by: alice) }
        let page = try await fixture.tweets.tweets(TweetQuery(.tag("swift")))
        #expect(page.map(\.id) == [second.id, first.id], "case and width folded, newest first, each tweet once")
        let trending = try await fixture.search.trending(since: Date().addingTimeInterval(-3600), limit: 10)
        #expect(
            trending == [
                TrendingTag(tag: "swift", tweetsCount: 2, usersCount: 2),
                TrendingTag(tag: "rust", tweetsCount: 3, usersCount: 1),
            ], "ranked by accounts before tweets")
        #expect(try await fixture.search.trending(since: Date().addingTimeInterval(60), limit: 10).isEmpty)
    }

    @Test(arguments: StoreBackend.all) func searchRanksTheNewestWindowFirstAndPagesThroughEveryMatchOnce(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let alice = try await fixture.user("alice")
        let bob = try await fixture.user("bob")
        let bobs = try await fixture.post("coffee from bob, long ago", by: bob)
        let count = SearchPosition.windowSize + 100
        // Queued together, they share group commits.
        let waits = (0..<count).map { index in
            let text = index == 5 || index == 600 ? "coffee coffee coffee strong \(index)" : "coffee number \(index)"
            return fixture.tweets.queued(PostDraft(text: text, by: alice.id))
        }
        var ids: [Int64] = []
        for wait in waits { ids.append(try await wait.value.id) }
        let query = try SearchQuery(parsing: "coffee")
        var seen: [Int64] = []
        var position: SearchPosition? = SearchPosition()
        var firstPage: [Int64] = []
        while let at = position {
            let page = try await fixture.search.search(query, authorID: nil, hiding: [], limit: 90, from: at)
            if firstPage.isEmpty { firstPage = page.tweets.map(\.id) }
            seen += page.tweets.map(\.id)
            position = page.next
        }
        #expect(seen.count == count + 1 && Set(seen) == Set(ids + [bobs.id]), "every match once, across both windows")
        let byBob = try await fixture.search.search(
            query, authorID: bob.id, hiding: [], limit: 20, from: SearchPosition())
        #expect(byBob.tweets.map(\.id) == [bobs.id], "a window with none of his does not end the page empty")
        #expect(byBob.next == nil)
        #expect(firstPage.first == ids[600], "the best match of the newest window leads")
        #expect(!firstPage.contains(ids[5]), "an older window waits its turn, however well it matches")
        #expect(seen.firstIndex(of: ids[5]) == SearchPosition.windowSize, "and leads its own window")

        // Posts that match while a reader pages do not slide the window under the reader's cursor.
        let page1 = try await fixture.search.search(
            query, authorID: nil, hiding: [], limit: 100, from: SearchPosition())
        for index in 0..<30 { _ = try await fixture.post("coffee coffee coffee late \(index)", by: alice) }
        var after: [Int64] = page1.tweets.map(\.id)
        position = page1.next
        while let at = position, at.before != nil, after.count < SearchPosition.windowSize {
            let page = try await fixture.search.search(query, authorID: nil, hiding: [], limit: 100, from: at)
            after += page.tweets.map(\.id)
            position = page.next
        }
        #expect(after.count == SearchPosition.windowSize && Set(after).count == after.count, "no repeat, no skip")
        #expect(Set(after) == Set(ids.suffix(SearchPosition.windowSize)), "the first page's window, to its end")
    }

    @Test(arguments: StoreBackend.all) func aMentionLinksTheAccountItMeantUnderItsNameNow(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let tweet = try await fixture.post("hi @bob", by: alice)
        #expect(try await fixture.tweets.tweet(id: tweet.id)?.entities.mentions.map(\.username) == ["bob"])
        _ = try await fixture.profiles.updateProfile(
            userID: bob.id, patch: ProfilePatch(username: "robert"), expectedVersion: nil)
        #expect(
            try await fixture.tweets.tweet(id: tweet.id)?.entities.mentions.isEmpty == true,
            "the text names no account any more")
        _ = try await fixture.users.createUser(email: "newbob@example.com", username: "bob", passwordHash: nil)
        #expect(
            try await fixture.tweets.tweet(id: tweet.id)?.entities.mentions.isEmpty == true,
            "whoever takes the name later was never mentioned")
    }
}
