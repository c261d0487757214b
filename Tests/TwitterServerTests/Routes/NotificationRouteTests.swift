import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// `notifications.*`: what others did that concerns you.
struct NotificationRouteTests: RouteTesting {
    static let routes = [
        API.Notifications.list.name, API.Notifications.markRead.name, API.Notifications.unreadCount.name,
        API.Notifications.subscribe.name, API.Notifications.dismiss.name, API.Notifications.clear.name,
    ]

    @Test func listShowsWhatOthersDidNewestFirstByTypeAndNothingFromAMutedAccount() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        let tweet = try await alice.call(API.Tweets.post, .init(text: "hello"))
        _ = try await alice.call(API.Tweets.like, .init(id: tweet.id))
        _ = try await bob.call(API.Users.follow, .init(username: "alice"))
        _ = try await bob.call(API.Tweets.like, .init(id: tweet.id))
        _ = try await carol.call(API.Tweets.post, .init(text: "hey @alice"))
        _ = try await carol.call(API.Tweets.post, .init(text: "indeed", inReplyToId: tweet.id))

        let page = try await alice.call(API.Notifications.list, .init())
        #expect(page.notifications.map(\.type) == [.reply, .mention, .like, .follow], "none for her own like")
        #expect(page.notifications.map(\.from.username) == ["carol", "carol", "bob", "bob"])
        #expect(page.notifications[2].tweet?.id == tweet.id && page.unread == 4)
        let likes = try await alice.call(API.Notifications.list, .init(types: [.like]))
        #expect(likes.notifications.map(\.from.username) == ["bob"])
        #expect(try await bob.call(API.Notifications.list, .init()).notifications.isEmpty, "alice's are hers")

        _ = try await alice.call(API.Users.mute, .init(username: "carol"))
        #expect(try await alice.call(API.Notifications.list, .init()).notifications.map(\.type) == [.like, .follow])
        #expect(try await alice.refusal(API.Notifications.list.name, ["types": ["hug"]]).code == -32602)
        #expect(try await daemon.connect().refusal(API.Notifications.list, .init()).code == -32001)
    }

    @Test func markReadMovesTheMarkerForwardOnly() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        _ = try await bob.call(API.Users.follow, .init(username: "alice"))
        _ = try await carol.call(API.Users.follow, .init(username: "alice"))
        let page = try await alice.call(API.Notifications.list, .init())
        let (newest, oldest) = (try #require(page.newestId), try #require(page.oldestId))
        #expect(try await alice.call(API.Notifications.markRead, .init(upToId: oldest)).unread == 1)
        #expect(try await alice.call(API.Notifications.markRead, .init(upToId: newest)).unread == 0)
        #expect(try await alice.call(API.Notifications.markRead, .init(upToId: oldest)).unread == 0, "never back")
        #expect(try await alice.call(API.Notifications.list, .init()).notifications.allSatisfy(\.read))
        #expect(try await daemon.connect().refusal(API.Notifications.markRead, .init(upToId: newest)).code == -32001)
        #expect(try await alice.refusal(API.Notifications.markRead.name, ["upToId": "all"]).code == -32602)
    }

    /// bob may not dismiss alice's notification, even knowing its id: it is as if there were none.
    @Test func dismissAndClearRemoveOnlyTheCallersOwn() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        _ = try await bob.call(API.Users.follow, .init(username: "alice"))
        _ = try await carol.call(API.Users.follow, .init(username: "alice"))
        _ = try await alice.call(API.Users.follow, .init(username: "bob"))
        let page = try await alice.call(API.Notifications.list, .init())
        let newest = try #require(page.newestId)
        #expect(try await bob.refusal(API.Notifications.dismiss, .init(id: newest)).code == -32004)
        #expect(try await alice.call(API.Notifications.list, .init()).notifications.count == 2)
        #expect(try await alice.call(API.Notifications.dismiss, .init(id: newest)).unread == 1)
        #expect(try await alice.refusal(API.Notifications.dismiss, .init(id: newest)).code == -32004, "gone")
        #expect(try await alice.call(API.Notifications.list, .init()).notifications.map(\.from.username) == ["bob"])
        #expect(try await alice.refusal(API.Notifications.dismiss.name, ["id": 0]).code == -32602)
        #expect(try await daemon.connect().refusal(API.Notifications.clear).code == -32001)
        #expect(try await alice.call(API.Notifications.clear).unread == 0)
        #expect(try await alice.call(API.Notifications.list, .init()).notifications.isEmpty)
        #expect(try await bob.call(API.Notifications.list, .init()).notifications.count == 1, "bob's stay")
    }

    @Test func unreadCountCountsTheCallersUnreadOnes() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        #expect(try await alice.call(API.Notifications.unreadCount).unread == 0)
        _ = try await bob.call(API.Users.follow, .init(username: "alice"))
        #expect(try await alice.call(API.Notifications.unreadCount).unread == 1)
        #expect(try await bob.call(API.Notifications.unreadCount).unread == 0)
        _ = try await alice.call(API.Users.block, .init(username: "bob"))
        #expect(try await alice.call(API.Notifications.unreadCount).unread == 0, "a blocked account's are hidden")
        #expect(try await daemon.connect().refusal(API.Notifications.unreadCount).code == -32001)
    }

    @Test func anAccountThatBlocksTheReaderIsLeftOutOfListCountAndStreamAlike() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        let tweet = try await alice.call(API.Tweets.post, .init(text: "hello"))
        _ = try await bob.call(API.Tweets.like, .init(id: tweet.id))
        _ = try await bob.call(API.Users.follow, .init(username: "alice"))
        #expect(try await alice.call(API.Notifications.unreadCount).unread == 2)
        // The refused side: bob blocks alice, so alice no longer hears of what bob did before.
        _ = try await bob.call(API.Users.block, .init(username: "alice"))
        let page = try await alice.call(API.Notifications.list, .init())
        #expect(page.notifications.isEmpty && page.unread == 0, "\(page.notifications)")
        #expect(try await alice.call(API.Notifications.unreadCount).unread == 0)
        #expect(try await alice.call(API.Notifications.markRead, .init(upToId: 0)).unread == 0)
        // The stream's catch-up from the start leaves bob's out too: carol's follow is the first line.
        _ = try await carol.call(API.Users.follow, .init(username: "alice"))
        _ = try await alice.call(API.Notifications.subscribe, .init(sinceId: 0))
        let first = try #require(await alice.inbox.next())
        #expect(first["params"]?["notification"]?["from"]?["username"] == "carol", "\(first)")
        await alice.close()
    }

    @Test func aMutedAccountIsLeftOutOfTheLiveStreamAtOnce() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let carol = try await daemon.signUp("carol")
        _ = try await alice.call(API.Notifications.subscribe, .init())
        _ = try await alice.call(API.Users.mute, .init(username: "bob"))
        _ = try await bob.call(API.Users.follow, .init(username: "alice"))
        _ = try await carol.call(API.Users.follow, .init(username: "alice"))
        let first = try #require(await alice.inbox.next())
        #expect(first["params"]?["notification"]?["from"]?["username"] == "carol", "\(first)")
        await alice.close()
    }

    @Test func aReportReachesTheAdminsWhetherTheReporterBlocksOrIsMutedByThem() async throws {
        let daemon = try await InProcessDaemon()
        let admin = try await daemon.admin()
        let bob = try await daemon.signUp("bob")
        _ = try await daemon.signUp("carol")
        _ = try await bob.call(API.Users.block, .init(username: "root"))
        _ = try await admin.call(API.Users.mute, .init(username: "bob"))
        let report = try await bob.call(API.Reports.create, .init(username: "carol", reason: "spam"))
        let told = try await admin.call(API.Notifications.list, .init(types: [.adminReport])).notifications
        #expect(told.map(\.reportID) == [report.id], "moderation sees what a blocker reports")
    }

    @Test func subscribeStreamsTheCallersNewNotifications() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let subscription = try await alice.call(API.Notifications.subscribe, .init()).subscription
        _ = try await bob.call(API.Users.follow, .init(username: "alice"))
        let new = try #require(await alice.inbox.next())
        #expect(new["method"] == "notifications.new")
        #expect(new["params"]?["subscription"] == .number(.init(subscription)))
        #expect(new["params"]?["notification"]?["type"] == "follow")
        #expect(new["params"]?["notification"]?["from"]?["username"] == "bob")
        #expect(try await daemon.connect().refusal(API.Notifications.subscribe, .init()).code == -32001)
        await alice.close()
    }
}
