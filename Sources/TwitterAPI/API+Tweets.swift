import JSONRPC
import TwitterCore

extension API.Tweets {
    /// `tweets.post`'s params.
    public struct PostParams: Codable, Sendable {
        /// Trimmed and NFC-normalised by the daemon; 1 to 140 characters.
        public var text: String
        /// Posting again with the same key within 24 hours returns the first tweet.
        public var idempotencyKey: String?

        /// Creates the value from its members.
        public init(text: String, idempotencyKey: String? = nil) {
            self.text = text
            self.idempotencyKey = idempotencyKey
        }
    }

    /// `tweets.fetch`'s params.
    public struct FetchParams: Codable, Sendable {
        /// Only tweets newer than this id.
        public var sinceId: Int64?
        /// Only tweets older than this id.
        public var maxId: Int64?
        /// How many, 1 to 200; 20 when nil.
        public var limit: Int?
        /// Only this username's tweets.
        public var author: String?

        /// Creates the value from its members.
        public init(sinceId: Int64? = nil, maxId: Int64? = nil, limit: Int? = nil, author: String? = nil) {
            self.sinceId = sinceId
            self.maxId = maxId
            self.limit = limit
            self.author = author
        }
    }

    /// One tweet, by id.
    public struct IDParams: Codable, Sendable {
        /// The tweet's id.
        public var id: Int64

        /// Creates the value from its members.
        public init(id: Int64) { self.id = id }
    }

    /// `tweets.subscribe`'s params.
    public struct SubscribeParams: Codable, Sendable {
        /// Only this username's tweets.
        public var author: String?
        /// First send the tweets newer than this id, so nothing is missed.
        public var sinceId: Int64?

        /// Creates the value from its members.
        public init(author: String? = nil, sinceId: Int64? = nil) {
            self.author = author
            self.sinceId = sinceId
        }
    }

    /// `tweets.unsubscribe`'s params.
    public struct UnsubscribeParams: Codable, Sendable {
        /// The subscription this notification belongs to.
        public var subscription: Int

        /// Creates the value from its members.
        public init(subscription: Int) { self.subscription = subscription }
    }

    /// `tweets.fetch`'s answer: newest first, with the ids to page from (null when empty).
    ///
    /// The daemon writes these bytes itself (FeedPage); TweetWireTests hold them against this type.
    public struct TweetPage: Decodable, Sendable, Equatable {
        /// The tweets, newest first.
        public var tweets: [Tweet]
        /// The newest id on the page, to refresh from; nil when the page is empty.
        public var newestId: Int64?
        /// The oldest id on the page, to page back from; nil when the page is empty.
        public var oldestId: Int64?
    }

    /// `tweets.delete`'s answer.
    public struct Deleted: Codable, Sendable {
        /// Always true.
        public var deleted: Bool

        /// Creates the value from its members.
        public init(deleted: Bool) { self.deleted = deleted }
    }

    /// `tweets.subscribe`'s answer.
    public struct Subscribed: Codable, Sendable {
        /// The id the subscription's notifications carry.
        public var subscription: Int

        /// Creates the value from its members.
        public init(subscription: Int) { self.subscription = subscription }
    }

    /// `tweets.unsubscribe`'s answer.
    public struct Unsubscribed: Codable, Sendable {
        /// Always true.
        public var unsubscribed: Bool

        /// Creates the value from its members.
        public init(unsubscribed: Bool) { self.unsubscribed = unsubscribed }
    }

    static let tweetSchema = Schema.object(
        [
            Property("id", .integer("The tweet's id; larger is newer."), required: true),
            Property(
                "author",
                .object(
                    [
                        Property("id", .integer(), required: true),
                        Property("username", .string(), required: true),
                    ], title: "Author"), required: true),
            Property("text", .string("1 to 140 characters."), required: true),
            Property("createdAt", .timestamp(), required: true),
        ], title: "Tweet"
    )

    /// `tweets.post`.
    public static let post = RPCMethod<PostParams, Tweet>(
        MethodDescriptor(
            "tweets.post", summary: "Posts a tweet; durable when answered.",
            params: [
                Property(
                    "text",
                    .string("Trimmed and NFC-normalised; 1 to 140 characters; no control characters but newline."),
                    required: true),
                Property(
                    "idempotencyKey",
                    .string("Posting again with the same key within 24 hours returns the first tweet.")),
            ],
            result: tweetSchema, positional: true, errors: ["invalid_params"]
        ))

    /// `tweets.fetch`.
    public static let fetch = RPCMethod<FetchParams, TweetPage>(
        MethodDescriptor(
            "tweets.fetch",
            summary: "Tweets, newest first: the whole feed or one author's, newer than sinceId, older than maxId.",
            params: [
                Property("sinceId", .integer("Only tweets newer than this id (pull to refresh).", minimum: 0)),
                Property("maxId", .integer("Only tweets older than this id (paging back).", minimum: 0)),
                Property("limit", .integer("How many, 1 to 200; 20 when absent.", minimum: 1, maximum: 200)),
                Property("author", .string("Only this username's tweets.")),
            ],
            result: .object(
                [
                    Property("tweets", .array(of: tweetSchema), required: true),
                    Property("newestId", Schema.integer().orNull(), required: true),
                    Property("oldestId", Schema.integer().orNull(), required: true),
                ], title: "TweetPage"),
            errors: ["invalid_params", "not_found"]
        ))

    /// `tweets.get`.
    public static let get = RPCMethod<IDParams, Tweet>(
        MethodDescriptor(
            "tweets.get", summary: "One tweet by id.", params: [Property("id", .integer(), required: true)],
            result: tweetSchema, positional: true, errors: ["not_found"]
        ))

    /// `tweets.delete`.
    public static let delete = RPCMethod<IDParams, Deleted>(
        MethodDescriptor(
            "tweets.delete", summary: "Deletes one of your own tweets.",
            params: [Property("id", .integer(), required: true)],
            result: .object([Property("deleted", .boolean(), required: true)]), positional: true,
            errors: ["forbidden", "not_found"]
        ))

    /// `tweets.subscribe`.
    public static let subscribe = RPCMethod<SubscribeParams, Subscribed>(
        MethodDescriptor(
            "tweets.subscribe",
            summary: "Streams tweets.new and tweets.deleted notifications on this connection, after this answer.",
            params: [
                Property("author", .string("Only this username's tweets.")),
                Property(
                    "sinceId",
                    .integer("First send the tweets newer than this id, so nothing is missed.", minimum: 0)),
            ],
            result: .object([Property("subscription", .integer("The id notifications carry."), required: true)]),
            errors: ["not_found", "unavailable"]
        ))

    /// `tweets.unsubscribe`.
    public static let unsubscribe = RPCMethod<UnsubscribeParams, Unsubscribed>(
        MethodDescriptor(
            "tweets.unsubscribe", summary: "Ends a subscription of this connection.",
            params: [Property("subscription", .integer(), required: true)],
            result: .object([Property("unsubscribed", .boolean(), required: true)]), positional: true,
            errors: ["not_found"]
        ))
}

// The notifications a subscription streams. The daemon writes `tweets.new` itself (TweetNotice); the others
// are encoded from these types.
extension API.Tweets {
    /// `tweets.new`: a tweet posted after the subscription began (or after its `sinceId`).
    public struct NewTweet: Decodable, Sendable, Equatable {
        /// The subscription this notification belongs to.
        public var subscription: Int
        /// The tweet.
        public var tweet: Tweet
    }

    /// `tweets.deleted`: a tweet the subscription may have shown is gone.
    public struct TweetDeleted: Codable, Sendable, Equatable {
        /// The subscription this notification belongs to.
        public var subscription: Int
        /// The id of the deleted tweet.
        public var id: Int64

        /// Creates the value from its members.
        public init(subscription: Int, id: Int64) {
            self.subscription = subscription
            self.id = id
        }
    }

    /// `tweets.lagged`: the subscriber fell behind and the subscription ended; fetch from `resumeFrom`.
    public struct Lagged: Codable, Sendable, Equatable {
        /// The subscription this notification belongs to.
        public var subscription: Int
        /// The last id delivered; fetch with sinceId from here.
        public var resumeFrom: Int64

        /// Creates the value from its members.
        public init(subscription: Int, resumeFrom: Int64) {
            self.subscription = subscription
            self.resumeFrom = resumeFrom
        }
    }

    /// `tweets.new`.
    public static let new = RPCNotification<NewTweet>("tweets.new")
    /// `tweets.deleted`.
    public static let deleted = RPCNotification<TweetDeleted>("tweets.deleted")
    /// `tweets.lagged`.
    public static let lagged = RPCNotification<Lagged>("tweets.lagged")
}
