import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterAPI
import TwitterClient
import TwitterCore

/// Mentions, replies, follows, likes and reposts reach the account they concern, at once and live, and go
/// away when undone; over the real socket.
@Suite(.serialized) struct NotificationTests {
    static func summary(_ page: API.Notifications.Page) -> [String] {
        page.notifications.map { "\($0.type.rawValue) \($0.from.username) \($0.tweet?.id ?? 0)" }
    }

    @Test func eachKindAppearsOnceAndUndoingWithdrawsIt() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await SocialTests.as_("bob", on: daemon, signUp: true) { _ in }
        let first = try await SocialTests.as_("alice", on: daemon, signUp: true) { alice in
            try await alice.call(API.Tweets.post, .init(text: "hi @bob, and @nobody"))
        }
        #expect(first.entities.mentions.map(\.username) == ["bob"], "an unknown name is plain text")
        let (reply, repost, mention) = try await SocialTests.as_("bob", on: daemon) { bob in
            let reply = try await bob.call(API.Tweets.post, .init(text: "@alice thanks", inReplyToId: first.id))
            _ = try await bob.call(API.Tweets.like, .init(id: first.id))
            let repost = try await bob.call(API.Tweets.repost, .init(id: first.id))
            _ = try await bob.call(API.Users.follow, .init(username: "alice"))
            let mention = try await bob.call(API.Tweets.post, .init(text: "look at @ALICE"))
            // His own actions notify no one: liking and answering his own tweet.
            _ = try await bob.call(API.Tweets.like, .init(id: mention.id))
            _ = try await bob.call(API.Tweets.post, .init(text: "me again", inReplyToId: mention.id))
            let mine = try await bob.call(API.Notifications.list, .init())
            #expect(Self.summary(mine) == ["mention alice \(first.id)"])
            return (reply, repost, mention)
        }
        try await SocialTests.as_("alice", on: daemon) { alice in
            let page = try await alice.call(API.Notifications.list, .init())
            #expect(
                Self.summary(page) == [
                    "mention bob \(mention.id)", "follow bob 0", "repost bob \(repost.id)", "like bob \(first.id)",
                    "reply bob \(reply.id)",
                ], "newest first; the reply that mentions her notifies once, as a reply")
            #expect(page.unread == 5 && page.notifications.allSatisfy { !$0.read })
            #expect(page.newestId == page.notifications.first?.id && page.oldestId == page.notifications.last?.id)
            #expect(page.notifications[2].tweet?.repostOf?.id == first.id, "a repost's tweet shows her original")
            #expect(page.notifications[3].tweet?.likedByMe == false, "tweets carry the reader's own marks")
            let follows = try await alice.call(API.Notifications.list, .init(types: [.follow]))
            #expect(Self.summary(follows) == ["follow bob 0"])
            let older = try await alice.call(API.Notifications.list, .init(maxId: page.notifications[1].id, limit: 2))
            #expect(older.notifications.map(\.id) == page.notifications[2...3].map(\.id))
            let badType = try await alice.callError("notifications.list", ["types": ["poke"]])
            #expect(badType?.code == -32602)

            #expect(
                try await alice.call(API.Notifications.markRead, .init(upToId: page.notifications[3].id)).unread == 3)
            #expect(try await alice.call(API.Notifications.markRead, .init(upToId: 1)).unread == 3, "never back")
            #expect(try await alice.call(API.Notifications.unreadCount).unread == 3)
            let marked = try await alice.call(API.Notifications.list, .init())
            #expect(marked.notifications.map(\.read) == [false, false, false, true, true])
        }
        try await SocialTests.as_("bob", on: daemon) { bob in
            _ = try await bob.call(API.Tweets.unlike, .init(id: first.id))
            _ = try await bob.call(API.Tweets.unrepost, .init(id: first.id))
            _ = try await bob.call(API.Users.unfollow, .init(username: "alice"))
            _ = try await bob.call(API.Tweets.delete, .init(id: reply.id))
            _ = try await bob.call(API.Tweets.delete, .init(id: mention.id))
        }
        try await SocialTests.as_("alice", on: daemon) { alice in
            let page = try await alice.call(API.Notifications.list, .init())
            #expect(page.notifications.isEmpty && page.unread == 0, "every undone action took its notification")
        }
    }

    @Test func notificationsArriveLiveAfterTheirCatchUpEachOnce() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await SocialTests.as_("alice", on: daemon, signUp: true) { _ in }
        try await SocialTests.as_("bob", on: daemon, signUp: true) { bob in
            _ = try await bob.call(API.Users.follow, .init(username: "alice"))
        }
        try await SocialTests.as_("alice", on: daemon) { alice in
            let subscribed = try await alice.call(API.Notifications.subscribe, .init(sinceId: 0))
            var lines = alice.notifications.makeAsyncIterator()
            func next() async throws -> ActivityNotification? {
                guard let line = await lines.next() else { return nil }
                let new = try alice.decode(line, as: API.Notifications.new)
                #expect(new?.subscription == subscribed.subscription)
                return new?.notification
            }
            #expect(try await next()?.type == .follow, "the catch-up from sinceId comes first")
            let tweet = try await alice.call(API.Tweets.post, .init(text: "anyone?"))
            try await SocialTests.as_("bob", on: daemon) { bob in
                _ = try await bob.call(API.Tweets.like, .init(id: tweet.id))
                _ = try await bob.call(API.Tweets.post, .init(text: "me!", inReplyToId: tweet.id))
                _ = try await bob.call(API.Tweets.repost, .init(id: tweet.id))
                _ = try await bob.call(API.Tweets.post, .init(text: "hey @alice"))
            }
            let live = [try await next(), try await next(), try await next(), try await next()]
            #expect(live.map { $0?.type } == [.like, .reply, .repost, .mention], "in the order they happened")
            #expect(live.allSatisfy { $0?.from.username == "bob" && $0?.tweet != nil })
            let ids = live.compactMap { $0?.id }
            #expect(ids == ids.sorted() && Set(ids).count == 4, "each once, in id order")
        }
        try await SocialTests.as_("alice", on: daemon) { alice in
            // Subscribing from the newest seen sends nothing old: the next line is the next notification.
            let newest = try await alice.call(API.Notifications.list, .init()).newestId
            _ = try await alice.call(API.Notifications.subscribe, .init(sinceId: newest))
            var lines = alice.notifications.makeAsyncIterator()
            try await SocialTests.as_("bob", on: daemon) { bob in
                _ = try await bob.call(API.Users.unfollow, .init(username: "alice"))
                _ = try await bob.call(API.Users.follow, .init(username: "alice"))
            }
            let line = try #require(await lines.next())
            let new = try #require(try alice.decode(line, as: API.Notifications.new))
            #expect(new.notification.type == .follow && new.notification.id > newest ?? 0)
        }
    }

    @Test func entitiesCountScalarsOfTheStoredTextOverTheWire() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await SocialTests.as_("zoe", on: daemon, signUp: true) { _ in }
        try await SocialTests.as_("alice", on: daemon, signUp: true) { alice in
            // A family emoji is 5 scalars; e and a combining acute are stored composed, as 1; Hebrew runs right
            // to left; the fullwidth tag is the same tag as #Tag.
            let tweet = try await alice.call(
                API.Tweets.post, .init(text: "👩‍👩‍👧 e\u{301} @ZOE שלום #ｔａｇ and #Tag https://x.org/(a)."))
            #expect(tweet.entities.mentions == [.init(username: "zoe", start: 8, end: 12)])
            #expect(
                tweet.entities.hashtags == [
                    .init(tag: "ｔａｇ", start: 18, end: 22), .init(tag: "Tag", start: 27, end: 31),
                ])
            #expect(tweet.entities.urls == [.init(url: "https://x.org/(a)", start: 32, end: 49)])
            let fetched = try await alice.call(API.Tweets.get, .init(id: tweet.id))
            #expect(fetched.entities == tweet.entities, "read back from the store, the same")
            for tag in ["tag", "#TAG", "ｔａｇ"] {
                #expect(try await alice.call(API.Tags.tweets, .init(tag: tag)).tweets.map(\.id) == [tweet.id], "\(tag)")
            }
            #expect(try await alice.callError("tags.tweets", ["tag": "#1"])?.code == -32602, "no letter, no tag")
        }
        try await SocialTests.as_("zoe", on: daemon) { (zoe) async throws in
            #expect(try await zoe.call(API.Notifications.unreadCount).unread == 1)
        }
    }
}
