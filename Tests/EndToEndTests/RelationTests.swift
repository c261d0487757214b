import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterAPI
import TwitterClient
import TwitterCore

/// Every mute and block rule, each checked from the side it keeps out, over the real socket. Each assertion
/// fails without its rule: the same call answers differently before the mute or block, or after it ends.
@Suite(.serialized) struct RelationTests {
    static let forbidden = -32003
    static let notFound = -32004

    /// Three accounts: bob follows alice and carol; carol reposts alice's tweet; alice follows carol.
    static func threeAccounts() async throws -> (DaemonProcess, aliceTweet: Tweet, carolTweet: Tweet) {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await SocialTests.as_("bob", on: daemon, signUp: true) { _ in }
        let aliceTweet = try await SocialTests.as_("alice", on: daemon, signUp: true) { alice in
            try await alice.call(API.Tweets.post, .init(text: "alice speaks of #coffee to @bob"))
        }
        let carolTweet = try await SocialTests.as_("carol", on: daemon, signUp: true) { carol in
            _ = try await carol.call(API.Tweets.repost, .init(id: aliceTweet.id))
            _ = try await carol.call(API.Tweets.like, .init(id: aliceTweet.id))
            return try await carol.call(API.Tweets.post, .init(text: "carol speaks of #coffee"))
        }
        try await SocialTests.as_("alice", on: daemon) { alice in
            _ = try await alice.call(API.Users.follow, .init(username: "carol"))
            _ = try await alice.call(API.Tweets.like, .init(id: carolTweet.id))
        }
        try await SocialTests.as_("bob", on: daemon) { bob in
            _ = try await bob.call(API.Users.follow, .init(username: "alice"))
            _ = try await bob.call(API.Users.follow, .init(username: "carol"))
        }
        return (daemon, aliceTweet, carolTweet)
    }

    /// The usernames of everything `reader` sees that could show alice: home, public, her user timeline, a tag,
    /// search, people lists and notifications.
    struct Sight: Equatable {
        var homeAuthors: Set<String> = []
        var publicAuthors: Set<String> = []
        var userTimeline = 0
        var tagAuthors: Set<String> = []
        var searchAuthors: Set<String> = []
        var people: Set<String> = []
        var likers: Set<String> = []
        var notifiers: Set<String> = []
        var unread = 0

        static func authors(_ tweets: [Tweet]) -> Set<String> {
            Set(tweets.flatMap { [$0.author.username] + ($0.repostOf.map { [$0.author.username] } ?? []) })
        }

        static func of(_ reader: RPCConnection, carolTweet: Tweet) async throws -> Sight {
            var sight = Sight()
            sight.homeAuthors = authors(try await reader.call(API.Timelines.home, .init()).tweets)
            sight.publicAuthors = authors(try await reader.call(API.Timelines.public, .init()).tweets)
            sight.userTimeline = try await reader.call(API.Timelines.user, .init(username: "alice")).tweets.count
            sight.tagAuthors = authors(try await reader.call(API.Tags.tweets, .init(tag: "coffee")).tweets)
            sight.searchAuthors = authors(try await reader.call(API.Search.tweets, .init(query: "speaks")).tweets)
            sight.people = Set(
                try await reader.call(API.Users.followers, .init(username: "carol")).users.map(\.username)
                    + reader.call(API.Search.users, .init(query: "a")).users.map(\.username))
            sight.likers = Set(
                try await reader.call(API.Tweets.likedBy, .init(id: carolTweet.id)).users.map(\.username))
            let notifications = try await reader.call(API.Notifications.list, .init())
            sight.notifiers = Set(notifications.notifications.map(\.from.username))
            sight.unread = notifications.unread
            return sight
        }

        var showsAlice: [String] {
            [
                ("home", homeAuthors), ("public", publicAuthors), ("tag", tagAuthors), ("search", searchAuthors),
                ("people", people), ("likedBy", likers), ("notifications", notifiers),
            ].filter { $0.1.contains("alice") }.map(\.0) + (userTimeline > 0 ? ["user"] : [])
        }
    }

    @Test func aMuteHidesTheAccountEverywhereKeepsFollowsAndEndsOnUnmute() async throws {
        let (daemon, aliceTweet, carolTweet) = try await Self.threeAccounts()
        try await SocialTests.as_("bob", on: daemon) { bob in
            let before = try await Sight.of(bob, carolTweet: carolTweet)
            #expect(
                before.showsAlice == ["home", "public", "tag", "search", "people", "likedBy", "notifications", "user"])
            let selfMute = try await bob.callError("users.mute", ["username": "bob"])
            #expect(selfMute?.code == -32602 && selfMute?.data["fields"]?["username"] != nil)
            #expect(try await bob.call(API.Users.mute, .init(username: "ALICE")).muted == true)
            #expect(try await bob.call(API.Users.mute, .init(username: "alice")).muted == true, "again: no change")

            let muted = try await Sight.of(bob, carolTweet: carolTweet)
            #expect(muted.showsAlice.isEmpty, "\(muted)")
            #expect(!muted.homeAuthors.isEmpty && muted.homeAuthors.contains("carol"), "carol's own tweet stays")
            #expect(muted.unread == 0, "her mention from before the mute is gone from the count")
            let overview = try await bob.call(API.Users.get, .init(username: "alice"))
            #expect(overview.mutedByMe && !overview.blockedByMe && overview.followedByMe, "the follow stays")
            #expect(try await bob.call(API.Tweets.get, .init(id: aliceTweet.id)).id == aliceTweet.id)
            #expect(try await bob.call(API.Users.muted, .init()).users.map(\.username) == ["alice"])

            // Live: her next tweet does not come; carol's, posted after it, is the next line.
            _ = try await bob.call(API.Timelines.subscribe, .init(timeline: "home"))
            var lines = bob.notifications.makeAsyncIterator()
            try await SocialTests.as_("alice", on: daemon) { alice in
                _ = try await alice.call(API.Tweets.post, .init(text: "muted words"))
                _ = try await alice.call(API.Users.unfollow, .init(username: "carol"))
                _ = try await alice.call(API.Users.follow, .init(username: "bob"))  // a follow notification
            }
            try await SocialTests.as_("carol", on: daemon) { carol in
                _ = try await carol.call(API.Tweets.post, .init(text: "carol again"))
            }
            let line = try #require(await lines.next())
            let next = try #require(try bob.decode(line, as: API.Tweets.new))
            #expect(next.tweet.text == "carol again")

            #expect(try await bob.call(API.Users.unmute, .init(username: "alice")).muted == false)
            let after = try await Sight.of(bob, carolTweet: carolTweet)
            #expect(after.showsAlice == before.showsAlice, "everything comes back")
            #expect(after.unread == 2, "her mention and her follow")
        }
    }

    @Test func aBlockedAccountCanNotReachOrSeeTheBlocker() async throws {
        let (daemon, aliceTweet, carolTweet) = try await Self.threeAccounts()
        try await SocialTests.as_("alice", on: daemon) { alice in
            _ = try await alice.call(API.Users.follow, .init(username: "bob"))
            let selfBlock = try await alice.callError("users.block", ["username": "alice"])
            #expect(selfBlock?.code == -32602)
            #expect(try await alice.call(API.Users.block, .init(username: "bob")).blocked == true)
            #expect(try await alice.call(API.Users.blocked, .init()).users.map(\.username) == ["bob"])
            #expect(try await alice.call(API.Users.get, .init(username: "bob")).blockedByMe)
            #expect(try await alice.call(API.Users.followers, .init(username: "alice")).users.isEmpty)
        }
        try await SocialTests.as_("bob", on: daemon) { bob in
            #expect(try await bob.call(API.Users.get, .init(username: "alice")).followsMe == false, "follows ended")
            #expect(try await !bob.call(API.Users.get, .init(username: "alice")).followedByMe)
            let target = aliceTweet.id
            #expect(
                try await SocialTests.code { try await bob.call(API.Users.follow, .init(username: "alice")) }
                    == Self.forbidden)
            // Her tweets are as if absent: naming one is -32004, like a tweet that does not exist.
            #expect(
                try await SocialTests.code {
                    try await bob.call(API.Tweets.post, .init(text: "hi", inReplyToId: target))
                }
                    == Self.notFound)
            #expect(
                try await SocialTests.code { try await bob.call(API.Tweets.like, .init(id: target)) } == Self.notFound)
            #expect(
                try await SocialTests.code { try await bob.call(API.Tweets.repost, .init(id: target)) }
                    == Self.notFound)
            #expect(
                try await SocialTests.code { try await bob.call(API.Tweets.get, .init(id: target)) } == Self.notFound)
            #expect(
                try await SocialTests.code { try await bob.call(API.Tweets.thread, .init(id: target)) } == Self.notFound
            )
            #expect(
                try await SocialTests.code { try await bob.call(API.Tweets.likedBy, .init(id: target)) }
                    == Self.notFound
            )
            let sight = try await Sight.of(bob, carolTweet: carolTweet)
            #expect(sight.showsAlice.isEmpty, "\(sight)")
            _ = try await bob.call(API.Tweets.post, .init(text: "@alice can you hear me"))
            // Carol's thread still shows; alice's reply in it would be a placeholder.
            #expect(try await bob.call(API.Tweets.thread, .init(id: carolTweet.id)).tweet.id == carolTweet.id)
        }
        let bobsTweet = try await SocialTests.as_("alice", on: daemon) { alice in
            let notifications = try await alice.call(API.Notifications.list, .init())
            #expect(!notifications.notifications.contains { $0.from.username == "bob" }, "no mention across a block")
            let page = try await alice.call(API.Timelines.public, .init())
            #expect(!page.tweets.contains { $0.author.username == "bob" }, "the blocker does not see him either")
            #expect(try await alice.call(API.Search.users, .init(query: "bo")).users.isEmpty)
            return try await SocialTests.as_("bob", on: daemon) { bob in
                try await bob.call(API.Timelines.user, .init(username: "bob")).tweets[0]
            }
        }
        try await SocialTests.as_("alice", on: daemon) { (alice) async throws in
            #expect(
                try await SocialTests.code { try await alice.call(API.Tweets.get, .init(id: bobsTweet.id)) }
                    == Self.notFound)
            #expect(try await alice.call(API.Users.unblock, .init(username: "bob")).blocked == false)
            #expect(try await alice.call(API.Tweets.get, .init(id: bobsTweet.id)).id == bobsTweet.id)
            #expect(try await !alice.call(API.Users.get, .init(username: "bob")).followedByMe, "no follow comes back")
        }
        try await SocialTests.as_("bob", on: daemon) { (bob) async throws in
            // An unblock gives access back, so it is not acknowledged by every daemon before its answer: against
            // two daemons, bob's may not have been told of it yet.
            let like = try await eventually {
                try await SocialTests.code { try await bob.call(API.Tweets.like, .init(id: aliceTweet.id)) }
            } until: {
                $0 == nil
            }
            #expect(like == nil, "the block has ended")
            #expect(try await bob.call(API.Tweets.get, .init(id: aliceTweet.id)).likedByMe)
            #expect(try await bob.call(API.Users.follow, .init(username: "alice")).following)
        }
    }
}
