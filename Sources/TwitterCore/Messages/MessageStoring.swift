import Foundation

/// Which conversation a message goes to: the one of exactly these accounts (made on first use), or one named
/// by id.
public enum MessageDestination: Sendable, Equatable {
    /// The most accounts `to` may name: with the sender, a conversation has at most 50 members.
    public static let maximumRecipients = 49

    /// The conversation of the sender and these account ids.
    case members([Int64])
    /// A conversation by id.
    case conversation(Int64)
}

/// A message to write: its destination, how its text is sealed and who sends it.
public struct MessageDraft: Sendable {
    /// Where it goes.
    public var destination: MessageDestination
    /// The text, sealed for the row the store gives it (`MessageSealing.seal(_:for:)`): the ids exist only once
    /// the row is written, inside the store's transaction, and the store never sees the text.
    public var seal: @Sendable (MessagePlace) -> [UInt8]
    /// The sender's id.
    public var senderID: Int64
    /// Sending again with this key within `PostDraft.idempotencyWindow` returns the first message.
    public var idempotencyKey: String?

    /// Creates the draft; written by hand because `seal` is an escaping closure, which the generated
    /// initializer does not mark so.
    public init(
        destination: MessageDestination, seal: @escaping @Sendable (MessagePlace) -> [UInt8], senderID: Int64,
        idempotencyKey: String?
    ) {
        self.destination = destination
        self.seal = seal
        self.senderID = senderID
        self.idempotencyKey = idempotencyKey
    }
}

// @MemberwiseInit
/// Which messages of a conversation: newest first, at most `limit`, between `sinceID` and `maxID` (exclusive).
public struct MessageQuery: Sendable, Equatable {
    /// How many, 1 to 200.
    public var limit: Int
    /// Only older than this id.
    public var maxID: Int64?
    /// Only newer than this id.
    public var sinceID: Int64?
}

/// Direct messages: conversations, their members and their sealed messages. Each store reads the facts,
/// asks `MessageRule` for the decision and writes the plan; sends are reported as commits (`CommitEvent.message`)
/// to the store's `CommitObserving`, in commit order.
public protocol MessageStoring: Sendable {
    /// Sends a message as `MessageRule.send` decides; the message and whom it reached.
    func send(_ draft: MessageDraft) async throws -> StoredMessage
    /// `readerID`'s conversations, most recent activity first.
    func conversations(of readerID: Int64, limit: Int, cursor: String?) async throws -> ConversationPage
    /// A conversation's messages as `readerID` may read them; -32004 when it is not one of its members.
    func messages(in conversationID: Int64, for readerID: Int64, _ query: MessageQuery) async throws
        -> [StoredMessage]
    /// Marks every message of the conversation read for `readerID`; -32004 for a non-member.
    func markRead(_ conversationID: Int64, by readerID: Int64) async throws
    /// Unread messages over every conversation of `readerID`.
    func unreadCount(of readerID: Int64) async throws -> Int
    /// Deletes the sender's own message for everyone (a placeholder stays); -32004 for anyone else's.
    func delete(_ messageID: Int64, by userID: Int64) async throws
    /// `userID` leaves the conversation: nothing more reaches it; -32004 for a non-member.
    func leave(_ conversationID: Int64, by userID: Int64) async throws
    /// One message as a member of its conversation sees it; nil for anyone else or none.
    func message(_ messageID: Int64, for readerID: Int64) async throws -> StoredMessage?
    /// Who may start writing to `userID`.
    func messagesFrom(of userID: Int64) async throws -> MessagesFrom
    /// Sets who may start writing to `userID`.
    func setMessagesFrom(_ setting: MessagesFrom, of userID: Int64) async throws
    /// Up to `limit` entries of `userID`'s conversations for `account.export`, from `cursor` (in the
    /// `conversations` section): conversations by id, each with the messages it may read, oldest first. A
    /// conversation starting on the page is one entry, each message one more; one going on from the last page is
    /// free, so every page hands out at least one message of it.
    func archive(of userID: Int64, from cursor: ArchiveCursor, limit: Int) async throws -> ConversationArchivePage
    /// One batch of the start-up re-seal: up to `limit` stored texts past message `after` that do not start with
    /// `marker`, by id, each replaced by what `rebind` makes of it for its own row, in one transaction. A row is
    /// written only while it still holds the text read, so another daemon's pass or a deletion in between wins.
    func rebindSealedTexts(
        marker: [UInt8], after: Int64, limit: Int,
        _ rebind: @escaping @Sendable (MessagePlace, [UInt8]) -> [UInt8]?
    ) async throws -> RebindBatch
}

// @MemberwiseInit
/// What one batch of the start-up re-seal did.
public struct RebindBatch: Sendable, Equatable {
    /// The last message id looked at, where the next batch starts; nil when none was left.
    public var lastID: Int64?
    /// The texts sealed again and written.
    public var rebound: Int
    /// The texts that could not be sealed again (they do not open under this key) or changed meanwhile.
    public var skipped: Int
}

// @MemberwiseInit
/// A page of an account's conversations in its export.
public struct ConversationArchivePage: Sendable, Equatable {
    /// The conversations, each with this page's messages of it.
    public var conversations: [ConversationArchive]
    /// Where the next page starts; nil after the last conversation.
    public var next: ArchiveCursor?
}

// @MemberwiseInit
/// One conversation in an account's export.
public struct ConversationArchive: Sendable, Equatable {
    /// The conversation's id.
    public var id: Int64
    /// Its members.
    public var members: [ConversationMember]
    /// Its messages the account could read, oldest first.
    public var messages: [StoredMessage]
}
