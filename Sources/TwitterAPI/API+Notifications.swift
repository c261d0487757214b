import JSONRPC
import TwitterCore

extension API.Notifications {
    // @MemberwiseInit
    /// `notifications.list`'s params.
    public struct ListParams: Codable, Sendable {
        /// Only notifications newer than this id.
        public var sinceId: Int64?
        /// Only notifications older than this id.
        public var maxId: Int64?
        /// How many, 1 to 200; 20 when nil.
        public var limit: Int?
        /// Only these types; every type when nil.
        public var types: [ActivityNotification.Kind]?
    }

    /// `notifications.list`'s answer.
    public struct Page: Codable, Sendable, Equatable {
        /// Newest first.
        public var notifications: [ActivityNotification]
        /// The newest id on the page; nil when it is empty.
        @NullWhenAbsent public var newestId: Int64? = nil
        /// The oldest id on the page; nil when it is empty.
        @NullWhenAbsent public var oldestId: Int64? = nil
        /// How many notifications are unread in all.
        public var unread: Int

        /// Creates the value from its members.
        public init(notifications: [ActivityNotification], unread: Int) {
            self.notifications = notifications
            newestId = notifications.first?.id
            oldestId = notifications.last?.id
            self.unread = unread
        }
    }

    // @MemberwiseInit
    /// `notifications.markRead`'s params.
    public struct MarkReadParams: Codable, Sendable {
        /// Every notification up to and including this id is read.
        public var upToId: Int64
    }

    // @MemberwiseInit
    /// `notifications.dismiss`'s params.
    public struct DismissParams: Codable, Sendable {
        /// The notification to remove.
        public var id: Int64
    }

    // @MemberwiseInit
    /// The unread count.
    public struct Unread: Codable, Sendable, Equatable {
        /// How many notifications are unread.
        public var unread: Int
    }

    // @MemberwiseInit
    /// `notifications.subscribe`'s params.
    public struct SubscribeParams: Codable, Sendable {
        /// First send the notifications newer than this id, so nothing is missed.
        public var sinceId: Int64?
    }

    // @MemberwiseInit
    /// `notifications.new`: a notification made after the subscription began (or after its `sinceId`).
    public struct New: Codable, Sendable, Equatable {
        /// The subscription this notification belongs to.
        public var subscription: Int
        /// The notification.
        public var notification: ActivityNotification
    }

    static let notificationSchema = Schema.object(
        [
            Property("id", .integer("Larger is newer."), required: true),
            Property("type", .oneOfStrings(ActivityNotification.Kind.allCases.map(\.rawValue)), required: true),
            Property("createdAt", .timestamp(), required: true),
            Property(
                "from", .object([Property("username", .string(), required: true)], title: "Actor"), required: true),
            Property(
                "tweet",
                Schema(
                    .oneOf([API.Tweets.tweetSchema, Schema(.null)]),
                    description:
                        "The mentioning tweet, the reply, the repost (its repostOf is yours) or the tweet liked; null for a follow."
                ), required: true),
            Property("read", .boolean(), required: true),
        ], title: "Notification")

    static let unreadSchema = Schema.object([Property("unread", .integer("Unread notifications."), required: true)])

    /// `notifications.list`.
    public static let list = RPCMethod<ListParams, Page>(
        MethodDescriptor(
            "notifications.list",
            summary: "Your notifications, newest first: mentions, replies, follows, likes and reposts by others.",
            params: [
                Property("sinceId", .integer("Only notifications newer than this id.", minimum: 0)),
                Property("maxId", .integer("Only notifications older than this id.", minimum: 0)),
                API.PageSize.tweets.property,
                Property(
                    "types",
                    .array(of: .oneOfStrings(ActivityNotification.Kind.allCases.map(\.rawValue)), "Only these types.")),
            ],
            result: .object(
                [
                    Property("notifications", .array(of: notificationSchema), required: true),
                    Property("newestId", Schema.integer().orNull(), required: true),
                    Property("oldestId", Schema.integer().orNull(), required: true),
                    Property("unread", .integer("Unread notifications in all."), required: true),
                ], title: "NotificationPage"),
            errors: ["invalid_params"]
        ))

    /// `notifications.markRead`.
    public static let markRead = RPCMethod<MarkReadParams, Unread>(
        MethodDescriptor(
            "notifications.markRead",
            summary: "Marks every notification up to upToId read; the marker never moves back.",
            params: [Property("upToId", .integer(minimum: 0), required: true)], result: unreadSchema,
            positional: true, errors: ["invalid_params"], rate: .marks
        ))

    /// `notifications.dismiss`.
    public static let dismiss = RPCMethod<DismissParams, Unread>(
        MethodDescriptor(
            "notifications.dismiss",
            summary: "Removes one of your notifications for good; the unread count after. not_found for an id that is "
                + "not one of yours.",
            params: [Property("id", .integer(minimum: 1), required: true)], result: unreadSchema, positional: true,
            errors: ["invalid_params", "not_found"], rate: .marks
        ))

    /// `notifications.clear`.
    public static let clear = RPCMethod<NoParams, Unread>(
        MethodDescriptor(
            "notifications.clear", summary: "Removes all your notifications for good; the unread count after (0).",
            params: [], result: unreadSchema, rate: .marks
        ))

    /// `notifications.unreadCount`.
    public static let unreadCount = RPCMethod<NoParams, Unread>(
        MethodDescriptor(
            "notifications.unreadCount", summary: "How many notifications are unread.", params: [],
            result: unreadSchema
        ))

    /// `notifications.subscribe`.
    public static let subscribe = RPCMethod<SubscribeParams, API.Tweets.Subscribed>(
        MethodDescriptor(
            "notifications.subscribe",
            summary: "Streams notifications.new on this connection, after this answer; end it with tweets.unsubscribe.",
            params: [
                Property(
                    "sinceId",
                    .integer("First send the notifications newer than this id, so nothing is missed.", minimum: 0))
            ],
            result: .object([Property("subscription", .integer("The id notifications carry."), required: true)]),
            errors: ["unavailable"]
        ))

    /// `notifications.new`.
    public static let new = RPCNotification<New>("notifications.new")
    /// `notifications.lagged`: the subscriber fell behind and the subscription ended; list from `resumeFrom`.
    public static let lagged = RPCNotification<API.Tweets.Lagged>("notifications.lagged")
}
