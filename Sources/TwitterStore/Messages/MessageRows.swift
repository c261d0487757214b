import Foundation
import GRDB
import TwitterCore

/// The reads of the message tables the store's methods share.
enum MessageRows {
    /// The id after which `member` reads the conversation; nil when it is not (or no longer) in it.
    static func joinedAfter(_ db: Database, conversation: Int64, member: Int64) throws -> Int64? {
        try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT joined_after_id FROM conversation_members
                    WHERE conversation_id = ? AND user_id = ? AND left_at IS NULL
                    """), arguments: [conversation, member])
    }

    /// The members still in the conversation.
    static func activeMembers(_ db: Database, of conversation: Int64) throws -> [Int64] {
        try Int64.fetchAll(
            db,
            sql:
                "SELECT user_id FROM conversation_members WHERE conversation_id = ? AND left_at IS NULL ORDER BY user_id",
            arguments: [conversation])
    }

    /// The members who left.
    static func leftMembers(_ db: Database, of conversation: Int64) throws -> Set<Int64> {
        Set(
            try Int64.fetchAll(
                db, sql: "SELECT user_id FROM conversation_members WHERE conversation_id = ? AND left_at IS NOT NULL",
                arguments: [conversation]))
    }

    /// Every member, in id order, with when it left.
    static func members(_ db: Database, of conversation: Int64) throws -> [ConversationMember] {
        let rows = try Row.fetchAll(
            db, sql: "SELECT user_id, left_at FROM conversation_members WHERE conversation_id = ? ORDER BY user_id",
            arguments: [conversation])
        let names = try MessageAccountFacts.usernames(db, Set(rows.map { $0["user_id"] }))
        return rows.map { row in
            let id: Int64 = row["user_id"]
            return ConversationMember(
                account: MessageAccount(id: id, username: names[id] ?? ""), leftAt: row["left_at"])
        }
    }

    /// A page of the conversation's messages past `joinedAfter`, newest first, none of a suspended sender's.
    static func page(_ db: Database, conversation: Int64, joinedAfter: Int64, _ query: MessageQuery) throws
        -> [StoredMessage]
    {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT id, sender_id, sealed_text, created_at FROM messages
                WHERE conversation_id = ?1 AND id > ?2 AND (?3 IS NULL OR id > ?3) AND (?4 IS NULL OR id < ?4)
                    AND \(MessageAccountFacts.senderShown("sender_id"))
                ORDER BY id DESC LIMIT ?5
                """, arguments: [conversation, joinedAfter, query.sinceID, query.maxID, query.limit])
        let names = try MessageAccountFacts.usernames(db, Set(rows.map { $0["sender_id"] }))
        return rows.map { row in
            let sender: Int64 = row["sender_id"]
            let sealed: Data? = row["sealed_text"]
            return StoredMessage(
                id: row["id"], conversationID: conversation,
                sender: MessageAccount(id: sender, username: names[sender] ?? ""), sealedText: sealed.map(Array.init),
                createdAt: row["created_at"])
        }
    }

    /// The sender's message with idempotency key `key` sent after `after`.
    static func idempotent(_ db: Database, sender: Int64, key: String, after: Date) throws -> StoredMessage? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT id, conversation_id FROM messages
                    WHERE sender_id = ? AND idempotency_key = ? AND created_at > ?
                    """, arguments: [sender, key, after])
        else { return nil }
        let id: Int64 = row["id"]
        return try page(
            db, conversation: row["conversation_id"], joinedAfter: 0,
            MessageQuery(limit: 1, maxID: id + 1, sinceID: id - 1)
        ).first
    }
}
