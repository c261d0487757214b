import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// Direct messages through the request path: every method, each rule from the side of the one refused, and the
/// live stream (in order, each once, to every participant's subscribed connections, ended with the login).
struct MessageRouteTests: RouteTesting {
    static let routes = [
        API.Messages.send.name, API.Messages.conversations.name, API.Messages.list.name, API.Messages.markRead.name,
        API.Messages.unreadCount.name, API.Messages.delete.name, API.Messages.leave.name,
        API.Messages.subscribe.name, API.Messages.unsubscribe.name,
    ]

    /// Signs up `name`, taking messages from everyone.
    static func open(_ daemon: InProcessDaemon, _ name: String) async throws -> Caller {
        let caller = try await daemon.signUp(name)
        _ = try await caller.call(API.Profiles.update, .init(messagesFrom: .everyone))
        return caller
    }

    @Test func aConversationIsMadeOnFirstUseListedReadAndCounted() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await Self.open(daemon, "alice")
        let bob = try await Self.open(daemon, "bob")
        let first = try await alice.call(API.Messages.send, .init(text: "  hello bob ", to: ["bob"]))
        #expect(first.text == "hello bob" && first.sender?.username == "alice")
        let conversation = try #require(first.conversationId)
        let second = try await alice.call(API.Messages.send, .init(text: "again", to: ["BOB"]))
        #expect(second.conversationId == conversation, "the same people, the same conversation")
        #expect(try await bob.call(API.Messages.unreadCount).count == 2)
        let answer = try await bob.call(API.Messages.send, .init(text: "hi", conversationId: conversation))
        #expect(try await alice.call(API.Messages.unreadCount).count == 1)
        #expect(try await bob.call(API.Messages.unreadCount).count == 0, "answering reads what came before")
        let listed = try await bob.call(API.Messages.list, .init(conversationId: conversation))
        #expect(listed.messages.map(\.text) == ["hi", "again", "hello bob"] && listed.nextCursor == nil)
        let paged = try await bob.call(API.Messages.list, .init(conversationId: conversation, limit: 2))
        #expect(paged.nextCursor == second.id)
        let page = try await bob.call(API.Messages.conversations, .init())
        let summary = try #require(page.conversations.first)
        #expect(summary.participants.map(\.username) == ["alice", "bob"])
        #expect(summary.lastMessage?.id == answer.id && summary.unreadCount == 0)
        #expect(try await alice.call(API.Messages.markRead, .init(conversationId: conversation)).unreadCount == 0)
        #expect(try await alice.refusal(API.Messages.send, .init(text: "hi", to: ["nobody"])).code == -32004)
        #expect(try await alice.refusal(API.Messages.send, .init(text: "hi", to: ["alice"])).code == -32602)
        let empty = try await alice.refusal(API.Messages.send, .init(text: "", to: ["bob"]))
        #expect(empty.code == -32602 && "\(empty.data["fields"] ?? .null)".contains("Message can not be empty"))
        #expect(
            try await alice.refusal(API.Messages.send, .init(text: String(repeating: "a", count: 1001), to: ["bob"]))
                .code == -32602)
        #expect(
            try await alice.refusal(API.Messages.send, .init(text: "both", to: ["bob"], conversationId: conversation))
                .code == -32602)
        #expect(try await daemon.connect().refusal(API.Messages.unreadCount).code == -32001)
    }

    @Test func anOutsiderCanNeitherReadNorWriteAConversationWhetherOrNotItExists() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await Self.open(daemon, "alice")
        _ = try await Self.open(daemon, "bob")
        let mallory = try await daemon.signUp("mallory")
        let message = try await alice.call(API.Messages.send, .init(text: "private", to: ["bob"]))
        let conversation = try #require(message.conversationId)
        for id in [conversation, conversation + 1000] {
            #expect(try await mallory.refusal(API.Messages.list, .init(conversationId: id)).code == -32004)
            #expect(
                try await mallory.refusal(API.Messages.send, .init(text: "in", conversationId: id)).code == -32004)
            #expect(try await mallory.refusal(API.Messages.markRead, .init(conversationId: id)).code == -32004)
            #expect(try await mallory.refusal(API.Messages.leave, .init(conversationId: id)).code == -32004)
        }
        #expect(try await mallory.refusal(API.Messages.delete, .init(id: message.id)).code == -32004)
        #expect(try await mallory.call(API.Messages.conversations, .init()).conversations.isEmpty)
    }

    @Test func aBlockEitherWayAndTheRecipientsSettingRefuseNamingTheUsername() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let refused = try await alice.refusal(API.Messages.send, .init(text: "hi", to: ["bob"]))
        #expect(refused.code == -32003 && refused.message.contains("@bob"), "following is the default")
        #expect(refused.data["username"] == .string("bob"))
        _ = try await bob.call(API.Users.follow, .init(username: "alice"))
        _ = try await alice.call(API.Messages.send, .init(text: "hi", to: ["bob"]))
        let updated = try await bob.call(API.Profiles.update, .init(messagesFrom: .nobody))
        #expect(updated.changed == ["messagesFrom"])
        #expect(try await bob.call(API.Profiles.update, .init(messagesFrom: .nobody)).changed == [])
        #expect(try await alice.refusal(API.Messages.send, .init(text: "hi", to: ["bob"])).code == -32003)
        _ = try await bob.call(API.Profiles.update, .init(messagesFrom: .everyone))
        _ = try await bob.call(API.Users.block, .init(username: "alice"))
        let blocked = try await alice.refusal(API.Messages.send, .init(text: "hi", to: ["bob"]))
        #expect(blocked.code == -32003 && blocked.message.contains("@bob"))
        let blocker = try await bob.refusal(API.Messages.send, .init(text: "hi", to: ["alice"]))
        #expect(blocker.code == -32003 && blocker.message.contains("@alice"), "the blocker cannot write either")
    }

    @Test func aSuspendedAccountNeitherSendsNorIsReachedAndItsMessagesHide() async throws {
        let daemon = try await InProcessDaemon()
        let admin = try await daemon.admin()
        let alice = try await Self.open(daemon, "alice")
        let bob = try await Self.open(daemon, "bob")
        let message = try await alice.call(API.Messages.send, .init(text: "before", to: ["bob"]))
        let conversation = try #require(message.conversationId)
        _ = try await admin.call(API.Admin.suspend, .init(username: "alice", reason: "spam"))
        #expect(try await alice.refusal(API.Messages.send, .init(text: "more", to: ["bob"])).code == -32001)
        // Named by `to`, a suspended account is absent, as it is to every method that looks a name up.
        #expect(try await bob.refusal(API.Messages.send, .init(text: "hey", to: ["alice"])).code == -32004)
        let refused = try await bob.refusal(API.Messages.send, .init(text: "hey", conversationId: conversation))
        #expect(refused.code == -32003 && refused.message.contains("@alice"), "and unreachable in a conversation")
        #expect(try await bob.call(API.Messages.list, .init(conversationId: conversation)).messages.isEmpty)
        #expect(try await bob.call(API.Messages.unreadCount).count == 0)
        _ = try await admin.call(API.Admin.unsuspend, .init(username: "alice"))
        #expect(try await bob.call(API.Messages.list, .init(conversationId: conversation)).messages.count == 1)
    }

    @Test func onlyTheSenderDeletesAndAPlaceholderKeepsThePlace() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await Self.open(daemon, "alice")
        let bob = try await Self.open(daemon, "bob")
        let message = try await alice.call(API.Messages.send, .init(text: "oops", to: ["bob"]))
        #expect(try await bob.refusal(API.Messages.delete, .init(id: message.id)).code == -32004)
        #expect(try await alice.call(API.Messages.delete, .init(id: message.id)).deleted)
        let listed = try await bob.call(API.Messages.list, .init(conversationId: try #require(message.conversationId)))
        #expect(listed.messages == [.placeholder(id: message.id)])
        let conversationID = Int(try #require(message.conversationId))
        let raw = try await bob.call(
            "messages.list", JSONValue.object(["conversationId": .number(JSONNumber(conversationID))]))
        let placeholder = JSONValue.object(["id": .number(JSONNumber(Int(message.id))), "deleted": .bool(true)])
        #expect(raw["messages"] == .array([placeholder]), "a placeholder is {id, deleted: true} and nothing more")
    }

    @Test func messagesArriveLiveInOrderOnceOnEveryParticipantsSubscribedConnection() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await Self.open(daemon, "alice")
        let bob = try await Self.open(daemon, "bob")
        let bobElsewhere = daemon.connect()
        _ = try await bobElsewhere.call(
            API.Auth.login,
            .init(
                provider: "password",
                credentials: ["email": "bob@example.com", "password": .string(InProcessDaemon.password)]))
        let mallory = try await Self.open(daemon, "mallory")
        for caller in [alice, bob, bobElsewhere, mallory] { _ = try await caller.call(API.Messages.subscribe) }
        var sent: [Int64] = []
        for index in 0..<3 {
            sent.append(try await alice.call(API.Messages.send, .init(text: "m\(index)", to: ["bob"])).id)
        }
        // Mallory's own message comes after alice's: once it arrives, nothing of alice's can still be on its way.
        _ = try await mallory.call(API.Messages.send, .init(text: "mine", to: ["alice"]))
        for caller in [bob, bobElsewhere] {
            var received: [Int64] = []
            for _ in 0..<3 {
                let line = try #require(await caller.inbox.next())
                #expect(line["method"] == .string("messages.new"))
                if case .number(let id)? = line["params"]?["message"]?["id"], let id = id.int {
                    received.append(Int64(id))
                }
            }
            #expect(received == sent)
        }
        let own = try #require(await mallory.inbox.next())
        #expect(own["params"]?["message"]?["text"] == .string("mine"), "mallory heard only her own message")
        #expect(mallory.inbox.takeAll().isEmpty)
        var aliceHeard: [JSONValue] = []
        for _ in 0..<4 { aliceHeard.append(try #require(await alice.inbox.next())) }
        #expect(aliceHeard.last?["params"]?["message"]?["text"] == .string("mine"))
    }

    @Test func aLeaverHearsNothingAfterwardsAndTheOthersSeeThatItLeft() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await Self.open(daemon, "alice")
        _ = try await Self.open(daemon, "bob")
        let carol = try await Self.open(daemon, "carol")
        let group = try await alice.call(API.Messages.send, .init(text: "all", to: ["bob", "carol"]))
        let conversation = try #require(group.conversationId)
        _ = try await carol.call(API.Messages.subscribe)
        #expect(try await carol.call(API.Messages.leave, .init(conversationId: conversation)).left)
        _ = try await alice.call(API.Messages.send, .init(text: "without carol", conversationId: conversation))
        // A later message to carol alone arrives first: the group's message never came.
        _ = try await alice.call(API.Messages.send, .init(text: "just you", to: ["carol"]))
        let first = try #require(await carol.inbox.next())
        #expect(first["params"]?["message"]?["text"] == .string("just you"))
        #expect(try await carol.refusal(API.Messages.list, .init(conversationId: conversation)).code == -32004)
        let seen = try await alice.call(API.Messages.conversations, .init())
        let participants = try #require(seen.conversations.first { $0.id == conversation }).participants
        #expect(participants.first { $0.username == "carol" }?.leftAt != nil)
    }

    @Test func aSubscriptionEndsWithUnsubscribeLogoutAndARevokedSession() async throws {
        let daemon = try await InProcessDaemon()
        let hub = daemon.services.messages.feed.hub
        let bob = daemon.connect()
        let signup = try await bob.call(
            API.Auth.signup,
            .init(email: "bob@example.com", password: InProcessDaemon.password, username: "bob"))
        let subscribed = try await bob.call(API.Messages.subscribe)
        #expect(hub.subscriptionCount == 1)
        #expect(try await bob.call(API.Messages.unsubscribe, .init(subscription: subscribed.subscription)).unsubscribed)
        #expect(hub.subscriptionCount == 0)
        #expect(
            try await bob.refusal(API.Messages.unsubscribe, .init(subscription: subscribed.subscription)).code == -32004
        )
        // The session, stolen and resumed on another connection, streams until its owner logs out.
        let thief = daemon.connect(uid: 1001)
        _ = try await thief.call(
            API.Auth.login, .init(provider: "token", credentials: ["token": .string(signup.session.token)]))
        _ = try await thief.call(API.Messages.subscribe)
        _ = try await bob.call(API.Messages.subscribe)
        #expect(hub.subscriptionCount == 2)
        _ = try await bob.call(API.Auth.logout)
        #expect(hub.subscriptionCount == 0, "the logout revoked the session both connections rest on")
        #expect(try await thief.refusal(API.Messages.subscribe).code == -32001)
    }

    @Test func sendsPastTheRateAreRefusedWithRetryAfter() async throws {
        let daemon = try await InProcessDaemon { $0.community.rates = [.messages: RateLimit(count: 2, period: 3600)] }
        let alice = try await Self.open(daemon, "alice")
        _ = try await Self.open(daemon, "bob")
        for index in 0..<2 { _ = try await alice.call(API.Messages.send, .init(text: "m\(index)", to: ["bob"])) }
        let refused = try await alice.refusal(API.Messages.send, .init(text: "one more", to: ["bob"]))
        #expect(refused.code == -32006)
        guard case .number(let retry)? = refused.data["retryAfter"] else {
            Issue.record("no retryAfter in \(refused.data)")
            return
        }
        #expect((retry.int ?? 0) > 0)
    }

    @Test func aMemberShowsOneMessageToTheAdminsAndNoOneElseCan() async throws {
        let daemon = try await InProcessDaemon()
        let admin = try await daemon.admin()
        let alice = try await Self.open(daemon, "alice")
        let bob = try await Self.open(daemon, "bob")
        let mallory = try await Self.open(daemon, "mallory")
        let spam = try await alice.call(API.Messages.send, .init(text: "buy followers", to: ["bob"]))
        #expect(
            try await mallory.refusal(API.Reports.create, .init(messageId: spam.id, reason: "spam")).code == -32004,
            "an outsider cannot report, nor learn that the message exists")
        #expect(
            try await bob.refusal(API.Reports.create, .init(tweetId: 1, messageId: spam.id, reason: "spam")).code
                == -32602)
        let report = try await bob.call(API.Reports.create, .init(messageId: spam.id, reason: "spam"))
        let filed = try #require(
            try await admin.call(API.Admin.reportsList, .init()).reports.first { $0.id == report.id })
        #expect(filed.username == "alice" && filed.reason.contains("buy followers"))
        let audit = try await admin.call(API.Admin.auditList, .init()).entries
        #expect(
            audit.contains { $0.action == "message.report" && $0.actor == "bob" && $0.target == "message \(spam.id)" })
    }

    @Test func theExportHoldsTheConversationsAndADeletedAccountLeavesPlaceholders() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await Self.open(daemon, "alice")
        let bob = try await Self.open(daemon, "bob")
        let hers = try await alice.call(API.Messages.send, .init(text: "from alice", to: ["bob"]))
        let conversation = try #require(hers.conversationId)
        _ = try await bob.call(API.Messages.send, .init(text: "from bob", conversationId: conversation))
        let archive = try await alice.call(API.Account.export, .init())
        #expect(archive.conversations.map(\.id) == [conversation])
        #expect(archive.conversations.first?.participants == ["alice", "bob"])
        #expect(archive.conversations.first?.messages.map(\.text) == ["from alice", "from bob"])
        _ = try await alice.call(API.Account.delete, .init(password: InProcessDaemon.password))
        let left = try await bob.call(API.Messages.list, .init(conversationId: conversation)).messages
        #expect(left.map(\.text) == ["from bob", nil] && left.last == .placeholder(id: hers.id))
    }
}
