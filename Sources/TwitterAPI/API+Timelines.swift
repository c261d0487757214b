import JSONRPC
import TwitterCore

extension API.Timelines {
    // @MemberwiseInit
    /// `timeline.home`'s and `timeline.public`'s params.
    public struct PageParams: Codable, Sendable {
        /// Only tweets newer than this id.
        public var sinceId: Int64?
        /// Only tweets older than this id.
        public var maxId: Int64?
        /// How many, 1 to 200; 20 when nil.
        public var limit: Int?
    }

    // @MemberwiseInit
    /// `timeline.user`'s params.
    public struct UserParams: Codable, Sendable {
        /// Whose tweets and reposts.
        public var username: String
        /// Only tweets newer than this id.
        public var sinceId: Int64?
        /// Only tweets older than this id.
        public var maxId: Int64?
        /// How many, 1 to 200; 20 when nil.
        public var limit: Int?
    }

    // @MemberwiseInit
    /// `timeline.list`'s params.
    public struct ListParams: Codable, Sendable {
        /// The list.
        public var id: Int64
        /// Only tweets newer than this id.
        public var sinceId: Int64?
        /// Only tweets older than this id.
        public var maxId: Int64?
        /// How many, 1 to 200; 20 when nil.
        public var limit: Int?
    }

    // @MemberwiseInit
    /// `timeline.subscribe`'s params.
    public struct SubscribeParams: Codable, Sendable {
        /// `home`, `public`, `user` or `list`.
        public var timeline: String
        /// For `user`: whose.
        public var username: String?
        /// For `list`: which.
        public var listId: Int64?
        /// First send the tweets newer than this id, so nothing is missed.
        public var sinceId: Int64?
    }

    static let pageParams = [
        Property("sinceId", .integer("Only tweets newer than this id (pull to refresh).", minimum: 0)),
        Property("maxId", .integer("Only tweets older than this id (paging back).", minimum: 0)),
        API.PageSize.tweets.property,
    ]

    /// `timeline.home`.
    public static let home = RPCMethod<PageParams, API.Tweets.TweetPage>(
        MethodDescriptor(
            "timeline.home",
            summary:
                "Your tweets and reposts and those of everyone you follow, newest first; each original once a page.",
            params: pageParams, result: API.Tweets.pageSchema, errors: ["invalid_params"]
        ))

    /// `timeline.user`.
    public static let user = RPCMethod<UserParams, API.Tweets.TweetPage>(
        MethodDescriptor(
            "timeline.user", summary: "One account's tweets and reposts, newest first; each original once a page.",
            params: [Property("username", .string(), required: true)] + pageParams, result: API.Tweets.pageSchema,
            errors: ["invalid_params", "not_found"]
        ))

    /// `timeline.list`.
    public static let list = RPCMethod<ListParams, API.Tweets.TweetPage>(
        MethodDescriptor(
            "timeline.list",
            summary:
                "A list's members' tweets and reposts, newest first, paged as timeline.home; each original once a page.",
            params: [Property("id", .integer("The list's id."), required: true)] + pageParams,
            result: API.Tweets.pageSchema, errors: ["invalid_params", "not_found"]
        ))

    /// `timeline.public`.
    public static let `public` = RPCMethod<PageParams, API.Tweets.TweetPage>(
        MethodDescriptor(
            "timeline.public", summary: "Everyone's tweets, newest first: tweets.fetch without an author.",
            params: pageParams, result: API.Tweets.pageSchema, errors: ["invalid_params"]
        ))

    /// `timeline.subscribe`.
    public static let subscribe = RPCMethod<SubscribeParams, API.Tweets.Subscribed>(
        MethodDescriptor(
            "timeline.subscribe",
            summary:
                "Streams a timeline's tweets.new, tweets.deleted and tweets.lagged notifications after this answer.",
            params: [
                Property("timeline", .oneOfStrings(["home", "public", "user", "list"]), required: true),
                Property("username", .string("For timeline \"user\": whose.")),
                Property("listId", .integer("For timeline \"list\": which.")),
                Property(
                    "sinceId",
                    .integer("First send the tweets newer than this id, so nothing is missed.", minimum: 0)),
            ],
            result: .object([Property("subscription", .integer("The id notifications carry."), required: true)]),
            errors: ["invalid_params", "not_found", "unavailable"]
        ))
}
