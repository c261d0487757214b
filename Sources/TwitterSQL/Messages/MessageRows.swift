import Foundation
import TwitterCore
import TwitterRules

/// The reads of the message tables the store's methods share.
enum MessageRows {
    /// The id after which `member` reads the conversation; nil when it is not (or no longer) in it.
    static func joinedAfter(_ connection: any SQLConnection, conversation: Int64, member: Int64) async throws
        -> Int64?
    {
        try await connection.value(
            """
            SELECT joined_after_id FROM conversation_members
            WHERE conversation_id = \(conversation) AND user_id = \(member) AND left_at IS NULL
            """, as: Int64.self)
    }

    /// Where `member`'s view of the conversation starts; a refusal (`MessageRule.memberRefusal`) unless it is
    /// still in it.
    @discardableResult
    static func requireMember(_ connection: any SQLConnection, conversation: Int64, member: Int64) async throws
        -> Int64
    {
        let joinedAfter = try await joinedAfter(connection, conversation: conversation, member: member)
        if let refusal = MessageRule.memberRefusal(isMember: joinedAfter != nil) { throw refusal }
        return joinedAfter ?? 0
    }

    /// The members still in the conversation.
    static func activeMembers(_ connection: any SQLConnection, of conversation: Int64) async throws -> [Int64] {
        try await connection.values(
            """
            SELECT user_id FROM conversation_members WHERE conversation_id = \(conversation) AND left_at IS NULL
            ORDER BY user_id
            """, as: Int64.self)
    }

    /// The members who left.
    static func leftMembers(_ connection: any SQLConnection, of conversation: Int64) async throws -> Set<Int64> {
        Set(
            try await connection.values(
                """
                SELECT user_id FROM conversation_members
                WHERE conversation_id = \(conversation) AND left_at IS NOT NULL
                """, as: Int64.self))
    }

    /// Every member, in id order, with when it left.
    static func members(_ connection: any SQLConnection, of conversation: Int64) async throws
        -> [ConversationMember]
    {
        let rows = try await connection.rows(
            """
            SELECT user_id, left_at FROM conversation_members WHERE conversation_id = \(conversation)
            ORDER BY user_id
            """)
        let ids = try rows.map { try $0.column("user_id", as: Int64.self) }
        let names = try await MessageAccountFacts.usernames(connection, Set(ids))
        return try rows.map { row in
            let id = try row.column("user_id", as: Int64.self)
            return ConversationMember(
                account: MessageAccount(id: id, username: names[id] ?? ""),
                leftAt: try row.column("left_at", as: Date?.self))
        }
    }

    /// A page of the conversation's messages past `joinedAfter`, newest first (or, for an export, oldest first
    /// from `sinceID`), none of a suspended sender's.
    static func page(
        _ connection: any SQLConnection, conversation: Int64, joinedAfter: Int64, _ query: MessageQuery,
        oldestFirst: Bool = false
    ) async throws -> [StoredMessage] {
        var sql: SQLQuery = """
            SELECT id, sender_id, sealed_text, created_at FROM messages
            WHERE conversation_id = \(conversation) AND id > \(joinedAfter)
            """
        if let since = query.sinceID { sql.append(" AND id > \(since)") }
        if let max = query.maxID { sql.append(" AND id < \(max)") }
        sql.append(" AND \(MessageAccountFacts.senderShown("sender_id"))")
        sql.append(unescaped: oldestFirst ? " ORDER BY id LIMIT " : " ORDER BY id DESC LIMIT ")
        sql.append("\(Int64(min(query.limit, Int(Int32.max))))")
        let rows = try await connection.rows(sql)
        let senders = try rows.map { try $0.column("sender_id", as: Int64.self) }
        let names = try await MessageAccountFacts.usernames(connection, Set(senders))
        return try rows.map { row in
            let sender = try row.column("sender_id", as: Int64.self)
            return StoredMessage(
                id: try row.column("id"), conversationID: conversation,
                sender: MessageAccount(id: sender, username: names[sender] ?? ""),
                sealedText: try row.column("sealed_text", as: Data?.self).map(Array.init),
                createdAt: try row.column("created_at"))
        }
    }

    /// The sender's message with idempotency key `key` sent after `after`.
    static func idempotent(_ connection: any SQLConnection, sender: Int64, key: String, after: Date) async throws
        -> StoredMessage?
    {
        guard
            let row = try await connection.firstRow(
                """
                SELECT id, conversation_id FROM messages
                WHERE sender_id = \(sender) AND idempotency_key = \(key) AND created_at > \(after)
                """)
        else { return nil }
        let id = try row.column("id", as: Int64.self)
        return try await page(
            connection, conversation: try row.column("conversation_id"), joinedAfter: 0,
            MessageQuery(limit: 1, maxID: id + 1, sinceID: id - 1)
        ).first
    }
}
