import TwitterCore
import TwitterRules

/// What a message's rules need to know of accounts, read from the tables the messages share with the rest of
/// the store (accounts, follows, blocks): the one file that names them.
enum MessageAccountFacts {
    /// The sender as `MessageRule` weighs it; nil when the account does not exist.
    static func sender(_ connection: any SQLConnection, _ id: Int64) async throws -> MessageRule.Sender? {
        guard let row = try await connection.firstRow(SQLQuery(Sender.self, id)) else { return nil }
        return MessageRule.Sender(
            account: MessageAccount(id: id, username: try row.column("username")),
            isSuspended: try row.column("suspended"))
    }

    private enum Sender: SQLText {
        static let sql: SQLQuery =
            "SELECT username, suspended_at IS NOT NULL AS suspended FROM users WHERE id = \(param: 1)"
    }

    /// Another member (or named account) as `MessageRule` weighs it for `senderID`'s message to `conversationID`.
    static func recipient(
        _ connection: any SQLConnection, _ id: Int64, sender senderID: Int64, conversation conversationID: Int64?,
        hasLeft: Bool
    ) async throws -> MessageRule.Recipient? {
        guard let row = try await connection.firstRow(SQLQuery(Recipient.self, id, senderID, conversationID ?? 0))
        else { return nil }
        let setting = try row.column("messages_from", as: String?.self)
        return MessageRule.Recipient(
            account: MessageAccount(id: id, username: try row.column("username")),
            isSuspended: try row.column("suspended"),
            messagesFrom: setting.flatMap(MessagesFrom.init(rawValue:)) ?? .default,
            followsSender: try row.column("follows"),
            isBlockedEitherWay: try await Blocks.blocker(connection, between: id, and: senderID) != nil,
            hasWrittenHere: try row.column("wrote"), hasLeft: hasLeft)
    }

    /// No conversation yet is 0, which no conversation is.
    private enum Recipient: SQLText {
        static let sql: SQLQuery = """
            SELECT username, suspended_at IS NOT NULL AS suspended,
                (SELECT messages_from FROM message_settings WHERE user_id = users.id) AS messages_from,
                EXISTS(SELECT 1 FROM follows WHERE follower_id = users.id AND followee_id = \(param: 2)) AS follows,
                EXISTS(SELECT 1 FROM messages WHERE conversation_id = \(param: 3) AND sender_id = users.id) AS wrote
            FROM users WHERE id = \(param: 1)
            """
    }

    /// The name of every account among `ids` that still exists.
    static func usernames(_ connection: any SQLConnection, _ ids: Set<Int64>) async throws -> [Int64: String] {
        guard !ids.isEmpty else { return [:] }
        var names: [Int64: String] = [:]
        for row in try await connection.rows("SELECT id, username FROM users WHERE id \(isIn: Array(ids))") {
            names[try row.column("id", as: Int64.self)] = try row.column("username", as: String.self)
        }
        return names
    }

    /// The condition that a message's sender (`column`) is not suspended: its messages are hidden meanwhile.
    static func senderShown(_ column: String) -> SQLQuery {
        AccountStanding.notSuspended(column)
    }
}
