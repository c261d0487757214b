import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// `bookmarks.add`, `remove` and `list`: private to their owner, refused across a block, and gone with their tweet.
struct BookmarkRouteTests: RouteTesting {
    static let routes = [API.Bookmarks.add.name, API.Bookmarks.remove.name, API.Bookmarks.list.name]

    @Test func bookmarksListNewestBookmarkFirstInPagesAndMarkEveryAnswer() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        var ids: [Int64] = []
        for text in ["one", "two", "three"] { ids.append(try await bob.call(API.Tweets.post, .init(text: text)).id) }
        for id in [ids[1], ids[0], ids[2]] {
            #expect(try await alice.call(API.Bookmarks.add, .init(id: id)) == .init(bookmarked: true))
        }
        #expect(try await alice.call(API.Bookmarks.add, .init(id: ids[0])) == .init(bookmarked: true), "idempotent")
        let first = try await alice.call(API.Bookmarks.list, .init(limit: 2))
        #expect(first.tweets.map(\.text) == ["three", "one"], "newest bookmark first")
        #expect(first.tweets.allSatisfy { $0.bookmarkedByMe })
        let cursor = try first.nextCursor.orThrow("a next page")
        let second = try await alice.call(API.Bookmarks.list, .init(limit: 2, cursor: cursor))
        #expect(second.tweets.map(\.text) == ["two"] && second.nextCursor == nil)

        #expect(try await alice.call(API.Tweets.get, .init(id: ids[0])).bookmarkedByMe)
        #expect(
            try await alice.call(API.Timelines.user, .init(username: "bob")).tweets.allSatisfy { $0.bookmarkedByMe })
        #expect(try await alice.call(API.Bookmarks.remove, .init(id: ids[0])) == .init(bookmarked: false))
        #expect(try await alice.call(API.Bookmarks.remove, .init(id: ids[0])) == .init(bookmarked: false))
        #expect(!(try await alice.call(API.Tweets.get, .init(id: ids[0])).bookmarkedByMe))
        #expect(try await alice.call(API.Bookmarks.list, .init()).tweets.map(\.text) == ["three", "two"])

        #expect(try await alice.refusal(API.Bookmarks.add, .init(id: ids[2] + 100)).code == -32004)
        #expect(try await alice.refusal(API.Bookmarks.list, .init(cursor: "nope")).code == -32602)
        #expect(try await alice.refusal(API.Bookmarks.list, .init(limit: 201)).code == -32602)
        #expect(try await daemon.connect().refusal(API.Bookmarks.list, .init()).code == -32001)
    }

    @Test func nobodyElseLearnsOfABookmarkNotThroughTheirListNorThroughAnAnswerShared() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        let tweet = try await bob.call(API.Tweets.post, .init(text: "keep me"))
        // Pages read before the bookmark stay in the read model's caches: they must not carry it to others.
        _ = try await carol.call(API.Tweets.fetch, .init())
        _ = try await carol.call(API.Timelines.user, .init(username: "bob"))
        _ = try await alice.call(API.Bookmarks.add, .init(id: tweet.id))
        #expect(try await alice.call(API.Tweets.fetch, .init()).tweets.first?.bookmarkedByMe == true)
        #expect(try await alice.call(API.Timelines.user, .init(username: "bob")).tweets.first?.bookmarkedByMe == true)
        for other in [bob, carol] {
            #expect(try await other.call(API.Bookmarks.list, .init()).tweets.isEmpty, "their own list, empty")
            #expect(try await other.call(API.Tweets.fetch, .init()).tweets.first?.bookmarkedByMe == false)
            #expect(
                try await other.call(API.Timelines.user, .init(username: "bob")).tweets.first?.bookmarkedByMe == false)
            #expect(try await other.call(API.Tweets.get, .init(id: tweet.id)).bookmarkedByMe == false)
        }
        let told = try await bob.call(API.Notifications.list, .init())
        #expect(told.notifications.isEmpty, "the author is not told")
    }

    @Test func aBlockRefusesTheBookmarkAndHidesOneMadeBeforeAndADeletedTweetLeavesTheList() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        let bobs = try await bob.call(API.Tweets.post, .init(text: "bob's"))
        let carols = try await carol.call(API.Tweets.post, .init(text: "carol's"))
        let gone = try await carol.call(API.Tweets.post, .init(text: "soon gone"))
        for id in [bobs.id, carols.id, gone.id] { _ = try await alice.call(API.Bookmarks.add, .init(id: id)) }
        #expect(try await alice.call(API.Bookmarks.list, .init()).tweets.count == 3)

        _ = try await carol.call(API.Tweets.delete, .init(id: gone.id))
        #expect(try await alice.call(API.Bookmarks.list, .init()).tweets.map(\.text) == ["carol's", "bob's"])

        _ = try await bob.call(API.Users.block, .init(username: "alice"))
        #expect(try await alice.call(API.Bookmarks.list, .init()).tweets.map(\.text) == ["carol's"], "hidden")
        let late = try await bob.call(API.Tweets.post, .init(text: "after the block"))
        #expect(try await alice.refusal(API.Bookmarks.add, .init(id: late.id)).code == -32004, "as if absent")
        _ = try await alice.call(API.Users.mute, .init(username: "carol"))
        #expect(try await alice.call(API.Bookmarks.list, .init()).tweets.isEmpty, "a mute hides it from lists too")
        _ = try await alice.call(API.Users.unmute, .init(username: "carol"))
        #expect(try await alice.call(API.Bookmarks.list, .init()).tweets.map(\.text) == ["carol's"])
    }

    @Test func theExportHoldsTheCallersBookmarksAndTheDeletionTakesThem() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let bobs = try await bob.call(API.Tweets.post, .init(text: "bob's"))
        let alices = try await alice.call(API.Tweets.post, .init(text: "alice's"))
        _ = try await alice.call(API.Bookmarks.add, .init(id: bobs.id))
        _ = try await bob.call(API.Bookmarks.add, .init(id: alices.id))
        #expect(try await alice.call(API.Account.export, .init()).bookmarks.map(\.tweetId) == [bobs.id])
        #expect(try await bob.call(API.Account.export, .init()).bookmarks.map(\.tweetId) == [alices.id])

        _ = try await alice.call(API.Account.delete, .init(password: InProcessDaemon.password))
        #expect(try await bob.call(API.Bookmarks.list, .init()).tweets.isEmpty, "its tweets leave others' lists")
        #expect(try await bob.call(API.Account.export, .init()).bookmarks.isEmpty)
        let again = try await daemon.signUp("alicia")
        #expect(try await again.call(API.Bookmarks.list, .init()).tweets.isEmpty)
    }
}
