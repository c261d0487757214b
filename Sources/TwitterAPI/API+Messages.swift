import Foundation
import JSONRPC
import TwitterCore

extension API {
    /// `messages.*`: direct messages between accounts, sealed at rest.
    public enum Messages {}
}

extension API.Messages {
    // @MemberwiseInit
    /// An account in a conversation.
    public struct Participant: Codable, Sendable, Equatable {
        /// The account's id.
        public var id: Int64
        /// Its name now.
        public var username: String
        /// When it left the conversation; absent while it is in it.
        public var leftAt: Date?
    }

    /// The sender of a message.
    public typealias Sender = AccountName

    /// A message, or the placeholder `{id, deleted: true}` its sender's deletion leaves in its place.
    public struct Message: Codable, Sendable, Equatable {
        /// Larger is newer.
        public var id: Int64
        /// The conversation; absent from a placeholder.
        public var conversationId: Int64?
        /// Who wrote it; absent from a placeholder.
        public var sender: Sender?
        /// The text; absent from a placeholder.
        public var text: String?
        /// When it was sent; absent from a placeholder.
        public var createdAt: Date?
        /// True for a placeholder; absent otherwise.
        public var deleted: Bool?

        /// A message as sent.
        public init(id: Int64, conversationId: Int64, sender: Sender, text: String, createdAt: Date) {
            self.id = id
            self.conversationId = conversationId
            self.sender = sender
            self.text = text
            self.createdAt = createdAt
        }

        /// The placeholder of a deleted message.
        public static func placeholder(id: Int64) -> Message {
            Message(placeholderID: id)
        }

        private init(placeholderID: Int64) {
            id = placeholderID
            deleted = true
        }
    }

    // @MemberwiseInit
    /// A conversation as one of its members lists it.
    public struct Conversation: Codable, Sendable, Equatable {
        /// The conversation's id.
        public var id: Int64
        /// Every member, the caller included; one that left carries `leftAt`.
        public var participants: [Participant]
        /// The newest message; null when there is none to show.
        @NullWhenAbsent public var lastMessage: Message? = nil
        /// Messages by others the caller has not read.
        public var unreadCount: Int
        /// The time of the newest message.
        public var updatedAt: Date
    }

    // @MemberwiseInit
    /// `messages.send`'s params: `to` or `conversationId`, not both.
    public struct SendParams: Codable, Sendable {
        /// 1 to 1,000 characters, as a tweet's text is checked.
        public var text: String
        /// The usernames of the conversation of exactly them and the sender, 1 to 49.
        public var to: [String]?
        /// A conversation the sender is in.
        public var conversationId: Int64?
        /// Sending again with the same key within 24 hours returns the first message.
        public var idempotencyKey: String?
    }

    /// `messages.conversations`' params.
    public typealias ConversationsParams = API.PageParams

    // @MemberwiseInit
    /// `messages.conversations`' answer.
    public struct ConversationPage: Codable, Sendable, Equatable {
        /// Most recent activity first.
        public var conversations: [Conversation]
        /// Pass as cursor for the next page; null at the end.
        @NullWhenAbsent public var nextCursor: String? = nil
    }

    // @MemberwiseInit
    /// `messages.list`'s params.
    public struct ListParams: Codable, Sendable {
        /// The conversation.
        public var conversationId: Int64
        /// How many, 1 to 200; 50 when nil.
        public var limit: Int?
        /// Only messages older than this id.
        public var maxId: Int64?
        /// Only messages newer than this id.
        public var sinceId: Int64?
    }

    // @MemberwiseInit
    /// `messages.list`'s answer.
    public struct MessagePage: Codable, Sendable, Equatable {
        /// Newest first.
        public var messages: [Message]
        /// Pass as maxId for the next (older) page; null at the end.
        @NullWhenAbsent public var nextCursor: Int64? = nil
    }

    // @MemberwiseInit
    /// A conversation, by id.
    public struct ConversationParams: Codable, Sendable {
        /// The conversation's id.
        public var conversationId: Int64
    }

    /// A message, by id.
    public typealias IDParams = API.IDParams

    // @MemberwiseInit
    /// `messages.unreadCount`'s answer.
    public struct UnreadCount: Codable, Sendable, Equatable {
        /// Unread messages over every conversation.
        public var count: Int
    }

    // @MemberwiseInit
    /// `messages.markRead`'s answer.
    public struct Marked: Codable, Sendable, Equatable {
        /// Unread messages left over every conversation.
        public var unreadCount: Int
    }

    // @MemberwiseInit
    /// `messages.leave`'s answer.
    public struct Left: Codable, Sendable, Equatable {
        /// Always true.
        public var left: Bool
    }

    // @MemberwiseInit
    /// `messages.new`: a message sent to a conversation of the subscriber's, after the subscription began.
    public struct New: Codable, Sendable, Equatable {
        /// The subscription this notification belongs to.
        public var subscription: Int
        /// The message.
        public var message: Message
    }
}

extension API.Messages {
    static let senderSchema = Schema.object(
        [Property("id", .integer(), required: true), Property("username", .string(), required: true)],
        title: "MessageSender")

    static let messageSchema = Schema.object(
        [
            Property("id", .integer("Larger is newer."), required: true),
            Property("conversationId", .integer("Absent from a placeholder.")),
            Property("sender", senderSchema),
            Property("text", .string("Absent from a placeholder.")),
            Property("createdAt", .timestamp()),
            Property("deleted", .boolean("True for the placeholder a deleted message leaves.")),
        ], title: "Message")

    static let conversationSchema = Schema.object(
        [
            Property("id", .integer(), required: true),
            Property(
                "participants",
                .array(
                    of: .object(
                        [
                            Property("id", .integer(), required: true),
                            Property("username", .string(), required: true),
                            Property("leftAt", .timestamp("When this member left; absent while it is in.")),
                        ], title: "Participant")), required: true),
            Property("lastMessage", messageSchema.orNull(), required: true),
            Property("unreadCount", .integer(), required: true),
            Property("updatedAt", .timestamp(), required: true),
        ], title: "Conversation")

    static let conversationIDParam = Property("conversationId", .integer(minimum: 1), required: true)

    /// `messages.send`.
    public static let send = RPCMethod<SendParams, Message>(
        MethodDescriptor(
            "messages.send",
            summary:
                "Sends a message to the conversation of exactly `to` and you (made on first use) or to conversationId.",
            params: [
                Property("text", .string("1 to 1,000 characters, checked as a tweet's text is."), required: true),
                Property("to", .array(of: .string(), "1 to 49 usernames.")),
                Property("conversationId", .integer("A conversation you are in.", minimum: 1)),
                Property(
                    "idempotencyKey", .string("Sending again with the same key within 24 hours returns the first.")),
            ],
            result: messageSchema, errors: ["invalid_params", "forbidden", "not_found", "rate_limited"], rate: .messages
        ))

    /// `messages.conversations`.
    public static let conversations = RPCMethod<ConversationsParams, ConversationPage>(
        MethodDescriptor(
            "messages.conversations", summary: "Your conversations, most recent activity first.",
            params: [
                API.PageSize.search.property,
                Property("cursor", .string("The nextCursor of the previous page.")),
            ],
            result: .object(
                [
                    Property("conversations", .array(of: conversationSchema), required: true),
                    Property("nextCursor", Schema.string().orNull(), required: true),
                ], title: "ConversationPage"),
            errors: ["invalid_params"]
        ))

    /// `messages.list`.
    public static let list = RPCMethod<ListParams, MessagePage>(
        MethodDescriptor(
            "messages.list", summary: "A conversation's messages, newest first; only its members may read them.",
            params: [
                conversationIDParam,
                API.PageSize.messages.property,
                Property("maxId", .integer("Only messages older than this id.", minimum: 0)),
                Property("sinceId", .integer("Only messages newer than this id.", minimum: 0)),
            ],
            result: .object(
                [
                    Property("messages", .array(of: messageSchema), required: true),
                    Property(
                        "nextCursor", Schema.integer("Pass as maxId for older messages.").orNull(), required: true),
                ], title: "MessagePage"),
            errors: ["invalid_params", "not_found"]
        ))

    /// `messages.markRead`.
    public static let markRead = RPCMethod<ConversationParams, Marked>(
        MethodDescriptor(
            "messages.markRead", summary: "Marks every message of a conversation read.",
            params: [conversationIDParam],
            result: .object([Property("unreadCount", .integer("Unread messages left in all."), required: true)]),
            errors: ["not_found"], rate: .marks
        ))

    /// `messages.unreadCount`.
    public static let unreadCount = RPCMethod<NoParams, UnreadCount>(
        MethodDescriptor(
            "messages.unreadCount", summary: "Unread messages over all your conversations.", params: [],
            result: .object([Property("count", .integer(), required: true)])
        ))

    /// `messages.delete`.
    public static let delete = RPCMethod<IDParams, API.Tweets.Deleted>(
        MethodDescriptor(
            "messages.delete",
            summary:
                "Deletes one of your own messages for everyone; a placeholder {id, deleted: true} keeps its place.",
            params: [Property("id", .integer(minimum: 1), required: true)],
            result: .object([Property("deleted", .boolean(), required: true)]), errors: ["not_found"], rate: .messages
        ))

    /// `messages.leave`.
    public static let leave = RPCMethod<ConversationParams, Left>(
        MethodDescriptor(
            "messages.leave", summary: "Leaves a conversation: no more of its messages reach you.",
            params: [conversationIDParam], result: .object([Property("left", .boolean(), required: true)]),
            errors: ["not_found"], rate: .messages
        ))

    /// `messages.subscribe`.
    public static let subscribe = RPCMethod<NoParams, API.Tweets.Subscribed>(
        MethodDescriptor(
            "messages.subscribe",
            summary: "Streams messages.new for every message to your conversations on this connection, in order.",
            params: [],
            result: .object([Property("subscription", .integer("The id notifications carry."), required: true)]),
            errors: ["unavailable"]
        ))

    /// `messages.unsubscribe`.
    public static let unsubscribe = RPCMethod<API.Tweets.UnsubscribeParams, API.Tweets.Unsubscribed>(
        MethodDescriptor(
            "messages.unsubscribe", summary: "Ends a messages subscription of this connection.",
            params: [Property("subscription", .integer(), required: true)],
            result: .object([Property("unsubscribed", .boolean(), required: true)]), errors: ["not_found"]
        ))

    /// `messages.new`.
    public static let new = RPCNotification<New>("messages.new")
    /// `messages.lagged`: the subscriber fell behind and the subscription ended; list from `resumeFrom`.
    public static let lagged = RPCNotification<API.Tweets.Lagged>("messages.lagged")
}
