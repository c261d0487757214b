import Foundation
import GRDB
import Synchronization
import TwitterCore
import TwitterRules

/// Direct messages in SQLite: conversations, their members and sealed messages. Sends are reported to the
/// observer on the writer's queue once committed, so live connections hear of them in commit order.
public final class MessageStore: MessageStoring {
    let database: AppDatabase
    private let observer = Mutex<(any MessageCommitObserving)?>(nil)

    /// Creates the store.
    public init(database: AppDatabase) {
        self.database = database
    }

    /// Sets the observer of sends.
    public func observe(_ observer: any MessageCommitObserving) {
        self.observer.withLock { $0 = observer }
    }

    /// Reads the facts, asks `MessageRule.send`, writes the plan in one transaction and reports it.
    public func send(_ draft: MessageDraft) async throws -> StoredMessage {
        let observer = observer.withLock { $0 }
        return try await database.writer.writeWithoutTransaction { db in
            var outcome: (StoredMessage, [MessageEvent])?
            try db.inTransaction {
                outcome = try Self.send(db, draft)
                return .commit
            }
            guard let (message, events) = outcome else { throw TwitterError(.internal, "The send had no outcome") }
            if !events.isEmpty { observer?.committed(events, elsewhere: false) }
            return message
        }
    }

    private static func send(_ db: Database, _ draft: MessageDraft) throws -> (StoredMessage, [MessageEvent]) {
        let now = Date().storagePrecision
        if let key = draft.idempotencyKey,
            let earlier = try MessageRows.idempotent(
                db, sender: draft.senderID, key: key, after: now.addingTimeInterval(-PostDraft.idempotencyWindow))
        {
            return (earlier, [])
        }
        guard let sender = try MessageAccountFacts.sender(db, draft.senderID) else {
            throw TwitterError.notFound("Account")
        }
        let target: MessageRule.Target
        switch draft.destination {
        case .conversation(let id):
            if try MessageRows.joinedAfter(db, conversation: id, member: draft.senderID) == nil {
                target = .outside
            } else {
                let others = try MessageRows.activeMembers(db, of: id).filter { $0 != draft.senderID }
                target = .conversation(
                    id: id,
                    others: try others.compactMap {
                        try MessageAccountFacts.recipient(
                            db, $0, sender: draft.senderID, conversation: id, hasLeft: false)
                    })
            }
        case .members(let ids):
            let key = MessageRule.membersKey(ids + [draft.senderID])
            let existing = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM conversations WHERE members_key = ?"), arguments: [key])
            let left = try existing.map { try MessageRows.leftMembers(db, of: $0) } ?? []
            target = .members(
                existing: existing,
                named: try ids.filter { $0 != draft.senderID }.compactMap {
                    try MessageAccountFacts.recipient(
                        db, $0, sender: draft.senderID, conversation: existing, hasLeft: left.contains($0))
                })
        }
        let plan = try MessageRule.send(from: sender, to: target).get()
        let conversationID: Int64
        switch (target, draft.destination) {
        case (.conversation(let id, _), _), (.members(let id?, _), _):
            conversationID = id
        case (_, .members(let ids)):
            try db.execute(
                sql:
                    "INSERT INTO conversations (members_key, created_at, updated_at, last_message_id) VALUES (?, ?, ?, 0)",
                arguments: [MessageRule.membersKey(ids + [draft.senderID]), now, now])
            conversationID = db.lastInsertedRowID
            for member in Set(ids + [draft.senderID]) {
                try db.execute(
                    sql: "INSERT INTO conversation_members (conversation_id, user_id) VALUES (?, ?)",
                    arguments: [conversationID, member])
            }
        default:
            throw TwitterError(.internal, "A send planned for no conversation")
        }
        let newest = try Int64.fetchOne(db, sql: "SELECT IFNULL(MAX(id), 0) FROM messages") ?? 0
        for member in plan.rejoining {
            try db.execute(
                sql: """
                    UPDATE conversation_members SET left_at = NULL, joined_after_id = ?, last_read_id = ?
                    WHERE conversation_id = ? AND user_id = ?
                    """, arguments: [newest, newest, conversationID, member])
        }
        try db.execute(
            sql: """
                INSERT INTO messages (conversation_id, sender_id, sealed_text, created_at, idempotency_key)
                VALUES (?, ?, ?, ?, ?)
                """,
            arguments: [conversationID, draft.senderID, Data(draft.sealedText), now, draft.idempotencyKey])
        let id = db.lastInsertedRowID
        try db.execute(
            sql: "UPDATE conversations SET updated_at = ?, last_message_id = ? WHERE id = ?",
            arguments: [now, id, conversationID])
        // One's own message is read.
        try db.execute(
            sql: "UPDATE conversation_members SET last_read_id = ? WHERE conversation_id = ? AND user_id = ?",
            arguments: [id, conversationID, draft.senderID])
        let message = StoredMessage(
            id: id, conversationID: conversationID, sender: sender.account, sealedText: draft.sealedText,
            createdAt: now)
        return (message, MessageRule.events(of: message, plan: plan))
    }

    /// Walks the reader's memberships by their conversations' newest message.
    public func conversations(of readerID: Int64, limit: Int, cursor: String?) async throws -> ConversationPage {
        let before = cursor.flatMap { Int64($0) } ?? Int64.max
        return try await database.writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT c.id, c.created_at, c.last_message_id, m.joined_after_id, m.last_read_id
                    FROM conversation_members m JOIN conversations c ON c.id = m.conversation_id
                    WHERE m.user_id = ? AND m.left_at IS NULL AND c.last_message_id < ?
                    ORDER BY c.last_message_id DESC LIMIT ?
                    """, arguments: [readerID, before, limit + 1])
            var summaries: [ConversationSummary] = []
            for row in rows.prefix(limit) {
                let id: Int64 = row["id"]
                let joinedAfter: Int64 = row["joined_after_id"]
                let lastRead: Int64 = row["last_read_id"]
                let last = try MessageRows.page(
                    db, conversation: id, joinedAfter: joinedAfter, MessageQuery(limit: 1)
                ).first
                let unread =
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM messages WHERE conversation_id = ? AND id > ? AND sender_id != ?
                                AND sealed_text IS NOT NULL AND \(MessageAccountFacts.senderShown("sender_id"))
                            """, arguments: [id, max(joinedAfter, lastRead), readerID]) ?? 0
                summaries.append(
                    ConversationSummary(
                        id: id, members: try MessageRows.members(db, of: id), lastMessage: last, unreadCount: unread,
                        updatedAt: last?.createdAt ?? row["created_at"]))
            }
            let next: Int64? = rows.count > limit ? rows[limit - 1]["last_message_id"] : nil
            return ConversationPage(conversations: summaries, nextCursor: next.map(String.init))
        }
    }

    /// Newest first, only past the reader's joining, none of a suspended sender's.
    public func messages(in conversationID: Int64, for readerID: Int64, _ query: MessageQuery) async throws
        -> [StoredMessage]
    {
        try await database.writer.read { db in
            let joinedAfter = try MessageRows.joinedAfter(db, conversation: conversationID, member: readerID)
            if let refusal = MessageRule.memberRefusal(isMember: joinedAfter != nil) { throw refusal }
            return try MessageRows.page(db, conversation: conversationID, joinedAfter: joinedAfter ?? 0, query)
        }
    }

    /// Moves the reader's mark to the conversation's newest message.
    public func markRead(_ conversationID: Int64, by readerID: Int64) async throws {
        try await database.writer.write { db in
            let joinedAfter = try MessageRows.joinedAfter(db, conversation: conversationID, member: readerID)
            if let refusal = MessageRule.memberRefusal(isMember: joinedAfter != nil) { throw refusal }
            try db.execute(
                sql: """
                    UPDATE conversation_members SET last_read_id =
                        (SELECT IFNULL(MAX(id), 0) FROM messages WHERE conversation_id = ?1)
                    WHERE conversation_id = ?1 AND user_id = ?2
                    """, arguments: [conversationID, readerID])
        }
    }

    /// Counts over the reader's memberships.
    public func unreadCount(of readerID: Int64) async throws -> Int {
        try await database.writer.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM conversation_members m JOIN messages ON messages.conversation_id = m.conversation_id
                    WHERE m.user_id = ?1 AND m.left_at IS NULL
                        AND messages.id > MAX(m.joined_after_id, m.last_read_id) AND messages.sender_id != ?1
                        AND messages.sealed_text IS NOT NULL AND \(MessageAccountFacts.senderShown("messages.sender_id"))
                    """, arguments: [readerID]) ?? 0
        }
    }

    /// Clears the text as `MessageRule.delete` decides; the row stays as the placeholder.
    public func delete(_ messageID: Int64, by userID: Int64) async throws {
        try await database.writer.write { db in
            let row = try Row.fetchOne(
                db, sql: "SELECT sender_id, sealed_text IS NULL AS deleted FROM messages WHERE id = ?",
                arguments: [messageID])
            switch MessageRule.delete(
                messageSenderID: row?["sender_id"], isDeleted: row?["deleted"] ?? false, by: userID)
            {
            case .failure(let error): throw error
            case .success(.nothing): break
            case .success(.placeholder):
                try db.execute(
                    sql: "UPDATE messages SET sealed_text = NULL, idempotency_key = NULL WHERE id = ?",
                    arguments: [messageID])
            }
        }
    }

    /// Marks the membership left.
    public func leave(_ conversationID: Int64, by userID: Int64) async throws {
        try await database.writer.write { db in
            let joinedAfter = try MessageRows.joinedAfter(db, conversation: conversationID, member: userID)
            if let refusal = MessageRule.memberRefusal(isMember: joinedAfter != nil) { throw refusal }
            try db.execute(
                sql: "UPDATE conversation_members SET left_at = ? WHERE conversation_id = ? AND user_id = ?",
                arguments: [Date().storagePrecision, conversationID, userID])
        }
    }

    /// The message when `readerID` is a member of its conversation who may read it.
    public func message(_ messageID: Int64, for readerID: Int64) async throws -> StoredMessage? {
        try await database.writer.read { db in
            guard
                let conversation = try Int64.fetchOne(
                    db, sql: "SELECT conversation_id FROM messages WHERE id = ?", arguments: [messageID]),
                let joinedAfter = try MessageRows.joinedAfter(db, conversation: conversation, member: readerID),
                messageID > joinedAfter
            else { return nil }
            return try MessageRows.page(
                db, conversation: conversation, joinedAfter: joinedAfter,
                MessageQuery(limit: 1, maxID: messageID + 1, sinceID: messageID - 1)
            ).first
        }
    }

    /// The stored setting, or the default.
    public func messagesFrom(of userID: Int64) async throws -> MessagesFrom {
        try await database.writer.read { db in
            try String.fetchOne(
                db, sql: "SELECT messages_from FROM message_settings WHERE user_id = ?", arguments: [userID]
            ).flatMap(MessagesFrom.init(rawValue:)) ?? .default
        }
    }

    /// Upserts the setting.
    public func setMessagesFrom(_ setting: MessagesFrom, of userID: Int64) async throws {
        try await database.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO message_settings (user_id, messages_from) VALUES (?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET messages_from = excluded.messages_from
                    """, arguments: [userID, setting.rawValue])
        }
    }

    /// Every conversation the account is in, with what it may read, oldest first.
    public func archive(of userID: Int64) async throws -> [ConversationArchive] {
        try await database.writer.read { db in
            try Self.archive(db, of: userID)
        }
    }

    static func archive(_ db: Database, of userID: Int64) throws -> [ConversationArchive] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT conversation_id, joined_after_id FROM conversation_members
                WHERE user_id = ? AND left_at IS NULL ORDER BY conversation_id
                """, arguments: [userID])
        return try rows.map { row in
            let id: Int64 = row["conversation_id"]
            let messages = try MessageRows.page(
                db, conversation: id, joinedAfter: row["joined_after_id"], MessageQuery(limit: Int.max / 2))
            return ConversationArchive(
                id: id, members: try MessageRows.members(db, of: id), messages: messages.reversed())
        }
    }

    /// An account's deletion: its messages become placeholders for the others, and it leaves every conversation.
    static func deleteAccount(_ db: Database, _ userID: Int64) throws {
        try db.execute(
            sql: "UPDATE messages SET sealed_text = NULL, idempotency_key = NULL WHERE sender_id = ?",
            arguments: [userID])
        try db.execute(sql: "DELETE FROM conversation_members WHERE user_id = ?", arguments: [userID])
        try db.execute(sql: "DELETE FROM message_settings WHERE user_id = ?", arguments: [userID])
    }
}
