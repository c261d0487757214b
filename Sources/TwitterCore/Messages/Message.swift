import Foundation

/// Who may start writing to an account (`profile.update {messagesFrom}`).
public enum MessagesFrom: String, Sendable, Codable, CaseIterable {
    /// Any account that no block separates from it.
    case everyone
    /// The accounts it follows: the default.
    case following
    /// No one.
    case nobody

    /// The setting of an account that never chose one.
    public static let `default` = MessagesFrom.following
}

/// An account as a conversation names it.
public typealias MessageAccount = AccountName

// @MemberwiseInit
/// A direct message as the stores keep it: its text sealed (`MessageSealing`), never in the clear.
public struct StoredMessage: Sendable, Equatable, Codable {
    /// Larger is newer, across every conversation.
    public var id: Int64
    /// The conversation it belongs to.
    public var conversationID: Int64
    /// Who wrote it.
    public var sender: MessageAccount
    /// The sealed text; nil once the message is deleted (a placeholder keeps its place).
    public var sealedText: [UInt8]?
    /// When it was sent.
    public var createdAt: Date

    /// Whether the sender deleted it.
    public var isDeleted: Bool { sealedText == nil }
}

// @MemberwiseInit
/// One participant of a conversation, as its members see them.
public struct ConversationMember: Sendable, Equatable, Codable {
    /// The account.
    public var account: MessageAccount
    /// When it left the conversation; nil while it is in it.
    public var leftAt: Date?
}

// @MemberwiseInit
/// A conversation as one of its members lists it.
public struct ConversationSummary: Sendable, Equatable {
    /// The conversation's id.
    public var id: Int64
    /// Every member, the reader included, in id order.
    public var members: [ConversationMember]
    /// The newest message the reader may read; nil when there is none.
    public var lastMessage: StoredMessage?
    /// Messages by others the reader has not read.
    public var unreadCount: Int
    /// The last activity: its newest message, or its creation.
    public var updatedAt: Date
}

// @MemberwiseInit
/// A page of conversations, most recent activity first.
public struct ConversationPage: Sendable, Equatable {
    /// The conversations.
    public var conversations: [ConversationSummary]
    /// Pass as `cursor` for the next page; nil at the end.
    public var nextCursor: String?
}
