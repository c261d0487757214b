import GRDB
import TwitterCore
import TwitterSQL
import TwitterRules

/// What a message's rules need to know of accounts, read from the tables the messages share with the rest of
/// the store (accounts, follows, blocks): the one file that names them.
enum MessageAccountFacts {
    /// The sender as `MessageRule` weighs it; nil when the account does not exist.
    static func sender(_ db: Database, _ id: Int64) throws -> MessageRule.Sender? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT username, suspended_at IS NOT NULL AS suspended FROM users WHERE id = ?"),
            arguments: [id]
        ).map {
            MessageRule.Sender(account: MessageAccount(id: id, username: $0["username"]), isSuspended: $0["suspended"])
        }
    }

    /// Another member (or named account) as `MessageRule` weighs it for `senderID`'s message to `conversationID`.
    static func recipient(
        _ db: Database, _ id: Int64, sender senderID: Int64, conversation conversationID: Int64?, hasLeft: Bool
    ) throws -> MessageRule.Recipient? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT username, suspended_at IS NOT NULL AS suspended,
                            (SELECT messages_from FROM message_settings WHERE user_id = users.id) AS messages_from,
                            EXISTS(SELECT 1 FROM follows WHERE follower_id = users.id AND followee_id = ?2) AS follows,
                            EXISTS(SELECT 1 FROM messages WHERE conversation_id = ?3 AND sender_id = users.id) AS wrote
                        FROM users WHERE id = ?1
                        """), arguments: [id, senderID, conversationID])
        else { return nil }
        let setting: String? = row["messages_from"]
        return MessageRule.Recipient(
            account: MessageAccount(id: id, username: row["username"]), isSuspended: row["suspended"],
            messagesFrom: setting.flatMap(MessagesFrom.init(rawValue:)) ?? .default, followsSender: row["follows"],
            isBlockedEitherWay: try Interactions.blocker(db, between: id, and: senderID) != nil,
            hasWrittenHere: row["wrote"], hasLeft: hasLeft)
    }

    /// The name of every account among `ids` that still exists.
    static func usernames(_ db: Database, _ ids: Set<Int64>) throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        var names: [Int64: String] = [:]
        let rows = try Row.fetchAll(
            db, sql: "SELECT id, username FROM users WHERE id IN (\(databaseQuestionMarks(count: ids.count)))",
            arguments: StatementArguments(Array(ids)))
        for row in rows { names[row["id"]] = row["username"] }
        return names
    }

    /// The condition that a message's sender (`column`) is not suspended: its messages are hidden meanwhile.
    static func senderShown(_ column: String) -> String {
        AccountStanding.notSuspended(column)
    }
}
