import Foundation
import TwitterCore
import TwitterRules

/// Direct messages: conversations, their members and sealed messages. A send is an ordered write like any other,
/// its event a commit's (`CommitEvent.message`), delivered live in commit order, on a shared database to every
/// daemon through the one commit log.
public struct MessageStore: MessageStoring {
    let database: ObservedDatabase

    /// Creates the store; committed sends are reported to `observer`.
    public init(database: any SQLDatabase, observer: any CommitObserving) {
        self.database = ObservedDatabase(database: database, observer: observer)
    }

    /// Reads the facts, asks `MessageRule.send`, writes the plan in one ordered write, and reports its events.
    public func send(_ draft: MessageDraft) async throws -> StoredMessage {
        try await database.orderedWrite { connection in try await Self.send(connection, draft) }
    }

    private static func send(_ connection: any SQLConnection, _ draft: MessageDraft) async throws
        -> (StoredMessage, [CommitEvent])
    {
        let now = connection.dialect.stored(Date())
        if let key = draft.idempotencyKey,
            let earlier = try await MessageRows.idempotent(
                connection, sender: draft.senderID, key: key,
                after: now.addingTimeInterval(-PostDraft.idempotencyWindow))
        {
            return (earlier, [])
        }
        guard let sender = try await MessageAccountFacts.sender(connection, draft.senderID) else {
            throw TwitterError.notFound("Account")
        }
        let target: MessageRule.Target
        switch draft.destination {
        case .conversation(let id):
            if try await MessageRows.joinedAfter(connection, conversation: id, member: draft.senderID) == nil {
                target = .outside
            } else {
                var others: [MessageRule.Recipient] = []
                for member in try await MessageRows.activeMembers(connection, of: id) where member != draft.senderID {
                    if let recipient = try await MessageAccountFacts.recipient(
                        connection, member, sender: draft.senderID, conversation: id, hasLeft: false)
                    {
                        others.append(recipient)
                    }
                }
                target = .conversation(id: id, others: others)
            }
        case .members(let ids):
            let key = MessageRule.membersKey(ids + [draft.senderID])
            let existing = try await connection.value(SQLQuery(ConversationByKey.self, key), as: Int64.self)
            var left: Set<Int64> = []
            if let existing { left = try await MessageRows.leftMembers(connection, of: existing) }
            var named: [MessageRule.Recipient] = []
            for id in ids where id != draft.senderID {
                if let recipient = try await MessageAccountFacts.recipient(
                    connection, id, sender: draft.senderID, conversation: existing, hasLeft: left.contains(id))
                {
                    named.append(recipient)
                }
            }
            target = .members(existing: existing, named: named)
        }
        let plan = try MessageRule.send(from: sender, to: target).get()
        let conversationID: Int64
        switch (target, draft.destination) {
        case (.conversation(let id, _), _), (.members(let id?, _), _):
            conversationID = id
        case (_, .members(let ids)):
            guard
                let id = try await connection.value(
                    """
                    INSERT INTO conversations (members_key, created_at, updated_at, last_message_id)
                    VALUES (\(MessageRule.membersKey(ids + [draft.senderID])), \(now), \(now), 0) RETURNING id
                    """, as: Int64.self)
            else { throw TwitterError(.internal, "The conversation just made has no id") }
            conversationID = id
            for member in Set(ids + [draft.senderID]).sorted() {
                try await connection.run(
                    "INSERT INTO conversation_members (conversation_id, user_id) VALUES (\(id), \(member))")
            }
        default:
            throw TwitterError(.internal, "A send planned for no conversation")
        }
        let newest = try await connection.value(SQLQuery(Newest.self), as: Int64.self) ?? 0
        for member in plan.rejoining {
            try await connection.run(
                """
                UPDATE conversation_members SET left_at = NULL, joined_after_id = \(newest), last_read_id = \(newest)
                WHERE conversation_id = \(conversationID) AND user_id = \(member)
                """)
        }
        guard
            let id = try await connection.value(
                SQLQuery(Insert.self, conversationID, draft.senderID, now, draft.idempotencyKey), as: Int64.self)
        else { throw TwitterError(.internal, "The message just written has no id") }
        // The text is sealed for its row, whose id the insert gave: the same transaction, so no one sees it empty.
        let sealedText = draft.seal(MessagePlace(messageID: id, conversationID: conversationID))
        try await connection.run(SQLQuery(Seal.self, Data(sealedText), id))
        try await connection.run(SQLQuery(Touch.self, now, id, conversationID))
        // One's own message is read.
        try await connection.run(SQLQuery(ReadOwn.self, id, conversationID, draft.senderID))
        let message = StoredMessage(
            id: id, conversationID: conversationID, sender: sender.account, sealedText: sealedText, createdAt: now)
        return (message, MessageRule.events(of: message, plan: plan))
    }

    private enum ConversationByKey: SQLText {
        static let sql: SQLQuery = "SELECT id FROM conversations WHERE members_key = \(param: 1)"
    }

    private enum Newest: SQLText {
        static let sql: SQLQuery = "SELECT coalesce(max(id), 0) FROM messages"
    }

    private enum Insert: SQLText {
        static let sql: SQLQuery = """
            INSERT INTO messages (conversation_id, sender_id, sealed_text, created_at, idempotency_key)
            VALUES (\(param: 1), \(param: 2), NULL, \(param: 3), \(param: 4, as: .text)) RETURNING id
            """
    }

    private enum Seal: SQLText {
        static let sql: SQLQuery = "UPDATE messages SET sealed_text = \(param: 1) WHERE id = \(param: 2)"
    }

    private enum Touch: SQLText {
        static let sql: SQLQuery =
            "UPDATE conversations SET updated_at = \(param: 1), last_message_id = \(param: 2) WHERE id = \(param: 3)"
    }

    private enum ReadOwn: SQLText {
        static let sql: SQLQuery =
            "UPDATE conversation_members SET last_read_id = \(param: 1) WHERE conversation_id = \(param: 2) AND user_id = \(param: 3)"
    }

    /// Walks the reader's memberships by their conversations' newest message.
    public func conversations(of readerID: Int64, limit: Int, cursor: String?) async throws -> ConversationPage {
        let before = cursor.flatMap { Int64($0) } ?? Int64.max
        return try await database.read { connection in
            let rows = try await connection.rows(
                """
                SELECT c.id, c.created_at, c.last_message_id, m.joined_after_id, m.last_read_id
                FROM conversation_members m JOIN conversations c ON c.id = m.conversation_id
                WHERE m.user_id = \(readerID) AND m.left_at IS NULL AND c.last_message_id < \(before)
                ORDER BY c.last_message_id DESC LIMIT \(Int64(limit + 1))
                """)
            var summaries: [ConversationSummary] = []
            for row in rows.prefix(limit) {
                let id = try row.column("id", as: Int64.self)
                let joinedAfter = try row.column("joined_after_id", as: Int64.self)
                let lastRead = try row.column("last_read_id", as: Int64.self)
                let last = try await MessageRows.page(
                    connection, conversation: id, joinedAfter: joinedAfter, MessageQuery(limit: 1)
                ).first
                let unread =
                    try await connection.value(
                        """
                        SELECT count(*) FROM messages WHERE conversation_id = \(id) AND id > \(max(joinedAfter, lastRead))
                            AND sender_id <> \(readerID) AND sealed_text IS NOT NULL
                            AND \(MessageAccountFacts.senderShown("sender_id"))
                        """, as: Int64.self) ?? 0
                summaries.append(
                    ConversationSummary(
                        id: id, members: try await MessageRows.members(connection, of: id), lastMessage: last,
                        unreadCount: Int(unread), updatedAt: try last?.createdAt ?? row.column("created_at")))
            }
            let next: Int64? =
                rows.count > limit ? try rows[limit - 1].column("last_message_id", as: Int64.self) : nil
            return ConversationPage(conversations: summaries, nextCursor: next.map(String.init))
        }
    }

    /// Newest first, only past the reader's joining, none of a suspended sender's.
    public func messages(in conversationID: Int64, for readerID: Int64, _ query: MessageQuery) async throws
        -> [StoredMessage]
    {
        try await database.read { connection in
            let joinedAfter = try await MessageRows.requireMember(
                connection, conversation: conversationID, member: readerID)
            return try await MessageRows.page(connection, conversation: conversationID, joinedAfter: joinedAfter, query)
        }
    }

    /// Moves the reader's mark to the conversation's newest message.
    public func markRead(_ conversationID: Int64, by readerID: Int64) async throws {
        try await database.transaction { connection in
            try await MessageRows.requireMember(connection, conversation: conversationID, member: readerID)
            try await connection.run(
                """
                UPDATE conversation_members SET last_read_id =
                    (SELECT coalesce(max(id), 0) FROM messages WHERE conversation_id = \(conversationID))
                WHERE conversation_id = \(conversationID) AND user_id = \(readerID)
                """)
        }
    }

    /// Counts over the reader's memberships.
    public func unreadCount(of readerID: Int64) async throws -> Int {
        try await database.read { connection in
            Int(
                try await connection.value(
                    """
                    SELECT count(*) FROM conversation_members m JOIN messages ON messages.conversation_id = m.conversation_id
                    WHERE m.user_id = \(readerID) AND m.left_at IS NULL
                        AND messages.id > \(function: .greatest)(m.joined_after_id, m.last_read_id) AND messages.sender_id <> \(readerID)
                        AND messages.sealed_text IS NOT NULL
                        AND \(MessageAccountFacts.senderShown("messages.sender_id"))
                    """, as: Int64.self) ?? 0)
        }
    }

    /// Clears the text as `MessageRule.delete` decides, in the row and in the commit log at once; the row
    /// stays as the placeholder.
    public func delete(_ messageID: Int64, by userID: Int64) async throws {
        try await database.transaction { connection in
            let row = try await connection.firstRow(
                """
                SELECT sender_id, sealed_text IS NULL AS deleted FROM messages WHERE id = \(messageID)\(lock: .forUpdate)
                """)
            switch MessageRule.delete(
                messageSenderID: try row?.column("sender_id", as: Int64.self),
                isDeleted: try row?.column("deleted", as: Bool.self) ?? false, by: userID)
            {
            case .failure(let error): throw error
            case .success(.nothing): break
            case .success(.placeholder):
                try await connection.run(
                    "UPDATE messages SET sealed_text = NULL, idempotency_key = NULL WHERE id = \(messageID)")
                // Every copy of the sealed text goes at once: the commit log's too.
                try await MessageLogPurge.run(connection, sent: .message(messageID))
            }
        }
    }

    /// Marks the membership left.
    public func leave(_ conversationID: Int64, by userID: Int64) async throws {
        try await database.transaction { connection in
            try await MessageRows.requireMember(connection, conversation: conversationID, member: userID)
            try await connection.run(
                """
                UPDATE conversation_members SET left_at = \(connection.dialect.stored(Date()))
                WHERE conversation_id = \(conversationID) AND user_id = \(userID)
                """)
        }
    }

    /// The message when `readerID` is a member of its conversation who may read it.
    public func message(_ messageID: Int64, for readerID: Int64) async throws -> StoredMessage? {
        try await database.read { connection in
            guard
                let conversation = try await connection.value(
                    "SELECT conversation_id FROM messages WHERE id = \(messageID)", as: Int64.self),
                let joinedAfter = try await MessageRows.joinedAfter(
                    connection, conversation: conversation, member: readerID),
                messageID > joinedAfter
            else { return nil }
            return try await MessageRows.page(
                connection, conversation: conversation, joinedAfter: joinedAfter,
                MessageQuery(limit: 1, maxID: messageID + 1, sinceID: messageID - 1)
            ).first
        }
    }

    /// The stored setting, or the default.
    public func messagesFrom(of userID: Int64) async throws -> MessagesFrom {
        try await database.read { connection in
            try await connection.value(
                "SELECT messages_from FROM message_settings WHERE user_id = \(userID)", as: String.self
            ).flatMap(MessagesFrom.init(rawValue:)) ?? .default
        }
    }

    /// Upserts the setting.
    public func setMessagesFrom(_ setting: MessagesFrom, of userID: Int64) async throws {
        try await database.transaction { connection in
            try await connection.run(
                """
                INSERT INTO message_settings (user_id, messages_from) VALUES (\(userID), \(setting.rawValue))
                ON CONFLICT (user_id) DO UPDATE SET messages_from = EXCLUDED.messages_from
                """)
        }
    }

    /// The account's conversations by id from the cursor, each with what it may read oldest first, in one
    /// snapshot; a page ends inside a conversation when its messages fill it.
    public func archive(of userID: Int64, from cursor: ArchiveCursor, limit: Int) async throws
        -> ConversationArchivePage
    {
        try await database.snapshot { connection in
            // Inside a conversation, it comes first again with the messages that follow.
            let continued = cursor.message.map { _ in cursor.after }
            let rows = try await connection.rows(
                """
                SELECT conversation_id, joined_after_id FROM conversation_members
                WHERE user_id = \(userID) AND left_at IS NULL
                    AND (conversation_id > \(cursor.after) OR conversation_id = \(continued ?? -1))
                ORDER BY conversation_id LIMIT \(Int64(limit + 2))
                """)
            // Every conversation but a continued one takes an entry, so `limit + 1` rows are the most a page
            // hands out; a row past them says whether there are more.
            var room = limit
            var page = ConversationArchivePage(conversations: [])
            for row in rows {
                let id = try row.column("conversation_id", as: Int64.self)
                let isContinued = id == continued
                if !isContinued {
                    guard room > 0 else {
                        // Full: the next page starts after the last conversation, handed out whole.
                        page.next = ArchiveCursor(
                            section: .conversations, after: page.conversations.last?.id ?? cursor.after)
                        return page
                    }
                    room -= 1
                }
                let after = isContinued ? cursor.message ?? 0 : 0
                let messages = try await MessageRows.page(
                    connection, conversation: id, joinedAfter: try row.column("joined_after_id"),
                    MessageQuery(limit: room + 1, sinceID: after), oldestFirst: true)
                let kept = Array(messages.prefix(room))
                room -= kept.count
                page.conversations.append(
                    ConversationArchive(
                        id: id, members: try await MessageRows.members(connection, of: id), messages: kept))
                if messages.count > kept.count {
                    page.next = ArchiveCursor(section: .conversations, after: id, message: kept.last?.id ?? after)
                    return page
                }
            }
            return page
        }
    }

    /// An account's deletion: its messages become placeholders for the others, and it leaves every conversation.
    static func deleteAccount(_ connection: any SQLConnection, _ userID: Int64) async throws {
        try await connection.run(
            "UPDATE messages SET sealed_text = NULL, idempotency_key = NULL WHERE sender_id = \(userID)")
        try await MessageLogPurge.run(connection, sent: .sender(userID))
        try await connection.run("DELETE FROM conversation_members WHERE user_id = \(userID)")
        try await connection.run("DELETE FROM message_settings WHERE user_id = \(userID)")
    }
}
