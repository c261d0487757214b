import Foundation
import Synchronization
import Testing
import TwitterCore

/// Direct messages on every backend: conversations made once, read only by their members, refused across
/// blocks, settings and suspensions, deleted into placeholders, left for good, reported in commit order.
struct MessageStoreTests {
    /// Bytes that stand for a sealed text: the stores never see a text, only what the sealer made of it.
    static func sealed(_ text: String) -> [UInt8] { Array(text.utf8).reversed() }
    static func text(_ message: StoredMessage) -> String? {
        message.sealedText.map { String(decoding: $0.reversed(), as: UTF8.self) }
    }

    static func send(
        _ fixture: StoreFixture, _ text: String, from sender: User, to destination: MessageDestination,
        key: String? = nil
    ) async throws -> StoredMessage {
        try await fixture.stores.messages.send(
            MessageDraft(
                destination: destination, seal: { _ in sealed(text) }, senderID: sender.id, idempotencyKey: key))
    }

    static func refusal(_ body: () async throws -> some Any) async -> TwitterError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error as? TwitterError
        }
    }

    @Test(arguments: StoreBackend.all) func aConversationIsMadeOnceListedNewestFirstAndReportedToItsMembers(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let recorder = fixture.commits
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        try await fixture.stores.messages.setMessagesFrom(.everyone, of: bob.id)
        let first = try await Self.send(fixture, "hello bob", from: alice, to: .members([bob.id]))
        let second = try await Self.send(fixture, "again", from: alice, to: .members([bob.id]))
        #expect(try await fixture.stores.messages.unreadCount(of: bob.id) == 2)
        let answer = try await Self.send(fixture, "hi alice", from: bob, to: .conversation(first.conversationID))
        #expect(second.conversationID == first.conversationID && answer.conversationID == first.conversationID)
        #expect(first.id < second.id && second.id < answer.id)
        #expect(first.sender == MessageAccount(id: alice.id, username: "alice"))

        let messages = fixture.stores.messages
        let listed = try await messages.messages(in: first.conversationID, for: alice.id, MessageQuery(limit: 10))
        #expect(listed.compactMap(Self.text) == ["hi alice", "again", "hello bob"])
        let page = try await messages.messages(
            in: first.conversationID, for: bob.id, MessageQuery(limit: 1, maxID: answer.id))
        #expect(page.map(\.id) == [second.id])
        let since = try await messages.messages(
            in: first.conversationID, for: bob.id, MessageQuery(limit: 5, sinceID: second.id))
        #expect(since.map(\.id) == [answer.id])

        #expect(try await messages.unreadCount(of: alice.id) == 1)
        #expect(try await messages.unreadCount(of: bob.id) == 0, "answering reads what came before")
        let conversations = try await messages.conversations(of: bob.id, limit: 20, cursor: nil)
        #expect(conversations.conversations.count == 1 && conversations.nextCursor == nil)
        let summary = try #require(conversations.conversations.first)
        #expect(summary.members.map(\.account.username) == ["alice", "bob"])
        #expect(summary.lastMessage?.id == answer.id && summary.unreadCount == 0)
        try await messages.markRead(first.conversationID, by: alice.id)
        #expect(try await messages.unreadCount(of: alice.id) == 0)

        #expect(recorder.sent.map(\.0.id) == [first.id, second.id, answer.id])
        #expect(recorder.sent.allSatisfy { Set($0.1) == [alice.id, bob.id] })
        #expect(recorder.elsewhere.isEmpty, "this daemon's own sends")
    }

    @Test(arguments: StoreBackend.all) func anIdempotencyKeyReturnsTheFirstMessageAndReportsNothingMore(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let recorder = fixture.commits
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        try await fixture.stores.messages.setMessagesFrom(.everyone, of: bob.id)
        let first = try await Self.send(fixture, "once", from: alice, to: .members([bob.id]), key: "k1")
        let again = try await Self.send(fixture, "once", from: alice, to: .members([bob.id]), key: "k1")
        #expect(again.id == first.id && recorder.sent.count == 1)
    }

    @Test(arguments: StoreBackend.all) func anOutsiderIsToldNoConversationExistsWhetherOrNotItDoes(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob, mallory) = (
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("mallory")
        )
        try await fixture.stores.messages.setMessagesFrom(.everyone, of: bob.id)
        let message = try await Self.send(fixture, "private", from: alice, to: .members([bob.id]))
        let messages = fixture.stores.messages
        for conversation in [message.conversationID, 999_999] {
            #expect(
                await Self.refusal {
                    try await messages.messages(in: conversation, for: mallory.id, MessageQuery(limit: 5))
                }?.kind == .notFound)
            #expect(
                await Self.refusal {
                    try await Self.send(fixture, "let me in", from: mallory, to: .conversation(conversation))
                }?.kind == .notFound)
            #expect(await Self.refusal { try await messages.markRead(conversation, by: mallory.id) }?.kind == .notFound)
            #expect(await Self.refusal { try await messages.leave(conversation, by: mallory.id) }?.kind == .notFound)
        }
        #expect(try await messages.message(message.id, for: mallory.id) == nil)
        #expect(await Self.refusal { try await messages.delete(message.id, by: mallory.id) }?.kind == .notFound)
        #expect(await Self.refusal { try await messages.delete(message.id, by: bob.id) }?.kind == .notFound)
        #expect(try await messages.conversations(of: mallory.id, limit: 20, cursor: nil).conversations.isEmpty)
        #expect(try await messages.message(message.id, for: bob.id)?.id == message.id)
    }

    @Test(arguments: StoreBackend.all) func blocksEitherWayAndTheRecipientsSettingRefuseNamingTheUsername(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let messages = fixture.stores.messages
        #expect(try await messages.messagesFrom(of: bob.id) == .following)
        let strangers = await Self.refusal { try await Self.send(fixture, "hi", from: alice, to: .members([bob.id])) }
        #expect(strangers?.kind == .forbidden && strangers?.details["username"] == .string("bob"))
        _ = try await fixture.follows.follow(alice.id, by: bob.id)
        _ = try await Self.send(fixture, "bob follows me", from: alice, to: .members([bob.id]))
        try await messages.setMessagesFrom(.nobody, of: bob.id)
        let closed = await Self.refusal { try await Self.send(fixture, "hi", from: alice, to: .members([bob.id])) }
        #expect(closed?.kind == .forbidden && closed?.message.contains("@bob") == true)
        try await messages.setMessagesFrom(.everyone, of: bob.id)
        _ = try await fixture.relations.block(alice.id, by: bob.id)
        let blocked = await Self.refusal { try await Self.send(fixture, "hi", from: alice, to: .members([bob.id])) }
        #expect(blocked?.kind == .forbidden && blocked?.details["username"] == .string("bob"))
        _ = try await fixture.relations.unblock(alice.id, by: bob.id)
        _ = try await fixture.relations.block(bob.id, by: alice.id)
        let blocking = await Self.refusal { try await Self.send(fixture, "hi", from: alice, to: .members([bob.id])) }
        #expect(blocking?.kind == .forbidden && blocking?.details["username"] == .string("bob"))
    }

    @Test(arguments: StoreBackend.all) func aSuspendedAccountNeitherSendsNorIsReachedAndItsMessagesHideMeanwhile(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let messages = fixture.stores.messages
        for user in [alice, bob] { try await messages.setMessagesFrom(.everyone, of: user.id) }
        let message = try await Self.send(fixture, "before", from: alice, to: .members([bob.id]))
        _ = try await fixture.moderation.suspend(alice.id, reason: "spam", at: Date())
        #expect(
            await Self.refusal { try await Self.send(fixture, "still here", from: alice, to: .members([bob.id])) }?
                .kind == .forbidden)
        let toSuspended = await Self.refusal {
            try await Self.send(fixture, "hey", from: bob, to: .members([alice.id]))
        }
        #expect(toSuspended?.kind == .forbidden && toSuspended?.details["username"] == .string("alice"))
        #expect(try await messages.messages(in: message.conversationID, for: bob.id, MessageQuery(limit: 5)).isEmpty)
        #expect(try await messages.unreadCount(of: bob.id) == 0)
        _ = try await fixture.moderation.unsuspend(alice.id)
        #expect(
            try await messages.messages(in: message.conversationID, for: bob.id, MessageQuery(limit: 5)).map(\.id)
                == [message.id])
        #expect(try await messages.unreadCount(of: bob.id) == 1)
    }

    @Test(arguments: StoreBackend.all) func theSenderDeletesForEveryoneAndAPlaceholderKeepsItsPlace(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let messages = fixture.stores.messages
        try await messages.setMessagesFrom(.everyone, of: bob.id)
        let gone = try await Self.send(fixture, "oops", from: alice, to: .members([bob.id]))
        let kept = try await Self.send(fixture, "fine", from: alice, to: .members([bob.id]))
        try await messages.delete(gone.id, by: alice.id)
        try await messages.delete(gone.id, by: alice.id)
        let listed = try await messages.messages(in: gone.conversationID, for: bob.id, MessageQuery(limit: 5))
        #expect(listed.map(\.id) == [kept.id, gone.id])
        #expect(listed.map(\.isDeleted) == [false, true])
        #expect(try await messages.unreadCount(of: bob.id) == 1, "a placeholder is nothing to read")
    }

    @Test(arguments: StoreBackend.all) func aLeaverHearsNothingMoreAndTheOthersSeeThatItLeft(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let recorder = fixture.commits
        let (alice, bob, carol) = (
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("carol")
        )
        let messages = fixture.stores.messages
        for user in [bob, carol] { try await messages.setMessagesFrom(.everyone, of: user.id) }
        let first = try await Self.send(fixture, "all of us", from: alice, to: .members([bob.id, carol.id]))
        try await messages.leave(first.conversationID, by: carol.id)
        let after = try await Self.send(fixture, "without carol", from: alice, to: .conversation(first.conversationID))
        #expect(Set(try #require(recorder.sent.last).1) == [alice.id, bob.id])
        #expect(
            await Self.refusal {
                try await messages.messages(in: first.conversationID, for: carol.id, MessageQuery(limit: 5))
            }?.kind == .notFound)
        #expect(try await messages.conversations(of: carol.id, limit: 5, cursor: nil).conversations.isEmpty)
        #expect(try await messages.unreadCount(of: carol.id) == 0)
        let seen = try #require(try await messages.conversations(of: bob.id, limit: 5, cursor: nil).conversations.first)
        #expect(seen.members.first { $0.account.id == carol.id }?.leftAt != nil)
        #expect(seen.lastMessage?.id == after.id)
        // Named again, it is back from the next message on, without what was said meanwhile.
        let back = try await Self.send(fixture, "come back", from: alice, to: .members([bob.id, carol.id]))
        #expect(back.conversationID == first.conversationID)
        #expect(
            try await messages.messages(in: first.conversationID, for: carol.id, MessageQuery(limit: 5)).map(\.id)
                == [back.id])
    }

    @Test(arguments: StoreBackend.all) func aDeletedAccountLeavesPlaceholdersAndItsArchiveHoldsWhatItCouldRead(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let messages = fixture.stores.messages
        for user in [alice, bob] { try await messages.setMessagesFrom(.everyone, of: user.id) }
        let hers = try await Self.send(fixture, "from alice", from: alice, to: .members([bob.id]))
        let his = try await Self.send(fixture, "from bob", from: bob, to: .members([alice.id]))
        let archive = try await messages.archive(of: alice.id, from: Self.conversationsStart, limit: 500)
        #expect(archive.next == nil)
        #expect(archive.conversations.map(\.id) == [hers.conversationID])
        #expect(archive.conversations.first?.messages.compactMap(Self.text) == ["from alice", "from bob"])
        try await fixture.accounts.deleteAccount(alice.id, reservingNameUntil: Date().addingTimeInterval(60))
        let left = try await messages.messages(in: hers.conversationID, for: bob.id, MessageQuery(limit: 5))
        #expect(left.map(\.id) == [his.id, hers.id] && left.map(\.isDeleted) == [false, true])
    }

    static let conversationsStart = ArchiveCursor(section: .conversations, after: 0)

    /// Every page of `userID`'s conversations in its archive, `limit` entries each, from the start.
    static func archivePages(_ messages: any MessageStoring, of userID: Int64, limit: Int) async throws
        -> [ConversationArchivePage]
    {
        var pages: [ConversationArchivePage] = []
        var cursor: ArchiveCursor? = conversationsStart
        while let from = cursor, pages.count < 100 {
            let page = try await messages.archive(of: userID, from: from, limit: limit)
            pages.append(page)
            cursor = page.next.flatMap { ArchiveCursor($0.text) }
        }
        return pages
    }

    @Test(arguments: StoreBackend.all) func aConversationLongerThanAPageIsArchivedWholePageByPage(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob, carol) = (
            try await fixture.user("alice"), try await fixture.user("bob"), try await fixture.user("carol")
        )
        let messages = fixture.stores.messages
        for user in [bob, carol] { try await messages.setMessagesFrom(.everyone, of: user.id) }
        let long = (0..<11).map { "to bob \($0)" }
        var bobsConversation: Int64 = 0
        for text in long {
            bobsConversation = try await Self.send(fixture, text, from: alice, to: .members([bob.id])).conversationID
        }
        let short = try await Self.send(fixture, "to carol", from: alice, to: .members([carol.id]))
        let gone = try await Self.send(fixture, "gone", from: alice, to: .members([bob.id, carol.id]))
        try await messages.delete(gone.id, by: alice.id)

        for limit in [1, 3, 4, 500] {
            let pages = try await Self.archivePages(messages, of: alice.id, limit: limit)
            // A conversation starting on a page is an entry, each message one; a continued one is free.
            for (index, page) in pages.enumerated() {
                let continued = index > 0 && page.conversations.first?.id == pages[index - 1].conversations.last?.id
                let entries =
                    page.conversations.count - (continued ? 1 : 0)
                    + page.conversations.map(\.messages.count).reduce(0, +)
                #expect(entries <= limit, "page \(index) of \(limit)")
            }
            #expect(pages.last?.next == nil, "the last page says so (limit \(limit))")
            // Joined, the pages are every conversation once, each with every message once, oldest first.
            var joined: [ConversationArchive] = []
            for conversation in pages.flatMap(\.conversations) {
                if joined.last?.id == conversation.id {
                    joined[joined.count - 1].messages += conversation.messages
                } else {
                    joined.append(conversation)
                }
            }
            #expect(joined.map(\.id) == [bobsConversation, short.conversationID, gone.conversationID])
            #expect(joined.first?.messages.compactMap(Self.text) == long, "limit \(limit)")
            #expect(joined.dropFirst().first?.messages.compactMap(Self.text) == ["to carol"])
            #expect(joined.last?.messages.map(\.id) == [gone.id] && joined.last?.messages.first?.isDeleted == true)
            #expect(joined.first?.members.map(\.account.username) == ["alice", "bob"])
        }
        // bob reads only his own conversations.
        let bobs = try await Self.archivePages(messages, of: bob.id, limit: 5).flatMap(\.conversations)
        #expect(!bobs.contains { $0.id == short.conversationID })
    }

    @Test(arguments: StoreBackend.all) func aDeletedMessagesSealedTextLeavesEveryTableTheLiveLogIncluded(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let messages = fixture.stores.messages
        try await messages.setMessagesFrom(.everyone, of: bob.id)
        let gone = try await Self.send(fixture, "secret \(UUID())", from: alice, to: .members([bob.id]))
        let kept = try await Self.send(fixture, "kept \(UUID())", from: alice, to: .members([bob.id]))
        /// Where the sealed text of `message` shows in some row: as bytes (hex), or as the JSON array of a log.
        func places(_ message: StoredMessage) async throws -> [String] {
            let sealed = try #require(message.sealedText)
            let hex = "\\x" + sealed.map { String(format: "%02x", $0) }.joined()
            let json = "[" + sealed.map(String.init).joined(separator: ",") + "]"
            return try await fixture.raw.everyRow().filter { $0.contains(hex) || $0.contains(json) }
        }
        #expect(try await !places(gone).isEmpty, "the search finds a sealed text before it is deleted")
        try await messages.delete(gone.id, by: alice.id)
        #expect(try await places(gone) == [], "no table holds the deleted message's sealed text")
        #expect(try await !places(kept).isEmpty, "another message is untouched")
        // Deleting the account purges every message it sent the same way.
        try await fixture.accounts.deleteAccount(alice.id, reservingNameUntil: Date().addingTimeInterval(60))
        #expect(try await places(kept) == [])
    }
}

extension CommitRecorder {
    /// The sends reported, each as the message and whom it reached.
    var sent: [(StoredMessage, [Int64])] {
        events.compactMap { event in
            guard case .message(.sent(let message, let recipients)) = event else { return nil }
            return (message, recipients)
        }
    }
}
