import JSONRPC
import TwitterCore

extension API.Tweets {
    // @MemberwiseInit
    /// `tweets.post`'s params.
    public struct PostParams: Codable, Sendable {
        /// Trimmed and NFC-normalised by the daemon; 1 to 140 characters, or empty for a quote.
        public var text: String
        /// Posting again with the same key within 24 hours returns the first tweet.
        public var idempotencyKey: String?
        /// The tweet this one answers.
        public var inReplyToId: Int64?
        /// The tweet this one quotes (a repost's original, for a repost).
        public var quoteOf: Int64?
    }

    // @MemberwiseInit
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
    }

    /// One tweet, by id.
    public typealias IDParams = API.IDParams

    // @MemberwiseInit
    /// `tweets.subscribe`'s params.
    public struct SubscribeParams: Codable, Sendable {
        /// Only this username's tweets.
        public var author: String?
        /// First send the tweets newer than this id, so nothing is missed.
        public var sinceId: Int64?
    }

    // @MemberwiseInit
    /// `tweets.unsubscribe`'s params.
    public struct UnsubscribeParams: Codable, Sendable {
        /// The subscription this notification belongs to.
        public var subscription: Int
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
        /// `timeline.user` only: the account's pinned tweet on the first page (no `maxId`); nil when none, on
        /// later pages, and on the other timelines (which leave the member out).
        public var pinnedTweet: Tweet?
    }

    /// `tweets.delete`'s answer.
    public typealias Deleted = API.Deleted

    // @MemberwiseInit
    /// `tweets.subscribe`'s answer.
    public struct Subscribed: Codable, Sendable {
        /// The id the subscription's notifications carry.
        public var subscription: Int
    }

    // @MemberwiseInit
    /// `tweets.unsubscribe`'s answer.
    public struct Unsubscribed: Codable, Sendable {
        /// Always true.
        public var unsubscribed: Bool
    }

    /// `tweets.quotes`'s params.
    public typealias QuotesParams = API.IDPageParams

    /// What `quoted` holds when the reader is not shown the quoted tweet: `{id, unavailable: true}` when it is
    /// deleted or hidden from the reader, `{id}` alone when it is not expanded (a quoted tweet's own quote).
    static let quotedReferenceSchema = Schema.object(
        [
            Property("id", .integer(), required: true),
            Property(
                "unavailable", .boolean("True: deleted, or hidden from the caller (a block, a mute, a suspension).")),
        ], "A quoted tweet not shown.", title: "QuotedReference")

    /// A tweet's own members; a repost's original has the same ones.
    static func tweetProperties(repostOf: Schema, quoted: Schema = quotedReferenceSchema) -> [Property] {
        [
            Property("id", .integer("The tweet's id; larger is newer."), required: true),
            Property(
                "author",
                .object(
                    [
                        Property("id", .integer(), required: true),
                        Property("username", .string(), required: true),
                    ], title: "Author"), required: true),
            Property(
                "text", .string("1 to 140 characters; empty for a repost, and may be for a quote."), required: true),
            Property("createdAt", .timestamp(), required: true),
            Property("entities", entitiesSchema, required: true),
            Property("inReplyToId", Schema.integer("The tweet this one answers.").orNull(), required: true),
            Property("likesCount", .integer(), required: true),
            Property("repostsCount", .integer(), required: true),
            Property("repliesCount", .integer("Direct replies."), required: true),
            Property("likedByMe", .boolean("Whether the caller likes it."), required: true),
            Property("repostedByMe", .boolean("Whether the caller has reposted it."), required: true),
            Property("bookmarkedByMe", .boolean("Whether the caller has bookmarked it."), required: true),
            Property("repostOf", repostOf, required: true),
            Property("quotesCount", .integer("Tweets quoting it."), required: true),
            Property("quoted", quoted.orNull(), required: true),
        ]
    }

    /// One entity kind: the named member and its place in the text.
    static func entitySchema(_ member: String, _ title: String, _ description: String) -> Schema {
        .array(
            of: .object(
                [
                    Property(member, .string(description), required: true),
                    Property("start", .integer("Offset in Unicode scalars of the text."), required: true),
                    Property("end", .integer("Offset just past it; exclusive."), required: true),
                ], title: title))
    }

    static let entitiesSchema = Schema.object(
        [
            Property(
                "mentions", entitySchema("username", "Mention", "The account mentioned, as it spells its name."),
                required: true),
            Property("hashtags", entitySchema("tag", "Hashtag", "The tag as written, without #."), required: true),
            Property("urls", entitySchema("url", "Link", "An http or https link as written."), required: true),
        ], "What the text mentions, tags and links, found when it was posted.", title: "Entities")

    /// The quoted tweet as the caller may see it, one level deep (its own `quoted` is a reference).
    static let quotedTweetSchema = Schema.object(
        tweetProperties(repostOf: Schema(.null)), "For a quote, the tweet quoted.", title: "QuotedTweet")

    static let quotedSchema = Schema(.oneOf([quotedTweetSchema, quotedReferenceSchema]))

    static let originalSchema = Schema.object(
        tweetProperties(repostOf: Schema(.null), quoted: quotedSchema), "For a repost, the original tweet.",
        title: "Original")

    static let tweetSchema = Schema.object(
        tweetProperties(repostOf: originalSchema.orNull(), quoted: quotedSchema), title: "Tweet")

    static let pageSchema = Schema.object(
        [
            Property("tweets", .array(of: tweetSchema), required: true),
            Property("newestId", Schema.integer().orNull(), required: true),
            Property("oldestId", Schema.integer().orNull(), required: true),
        ], title: "TweetPage")

    static let userSummarySchema = Schema.object(
        [
            Property("username", .string(), required: true),
            Property("firstName", .string(), required: true),
            Property("lastName", .string(), required: true),
        ], title: "UserSummary")

    static let userPageSchema = Schema.object(
        [
            Property("users", .array(of: userSummarySchema), required: true),
            Property(
                "nextCursor", Schema.string("Pass as cursor for the next page; null at the end.").orNull(),
                required: true),
        ], title: "UserPage")

    static let pageParams = [
        API.PageSize.people.property,
        Property("cursor", .string("The nextCursor of the previous page.")),
    ]

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
                Property("inReplyToId", .integer("The tweet this one answers.", minimum: 1)),
                Property(
                    "quoteOf",
                    .integer(
                        "The tweet this one quotes (a repost's original, for a repost); text may then be empty.",
                        minimum: 1)),
            ],
            result: tweetSchema, positional: true, errors: ["invalid_params", "forbidden", "not_found"], rate: .posts,
            // Queued in the store's commit order before its handler first waits: pipelined posts share a commit.
            sharesCommits: true
        ))

    /// `tweets.quotes`.
    public static let quotes = RPCMethod<QuotesParams, TweetListPage>(
        MethodDescriptor(
            "tweets.quotes",
            summary: "The tweets quoting a tweet (a repost's original), newest first; hidden quotes are left out.",
            params: [
                Property("id", .integer(), required: true),
                API.PageSize.tweets.property,
                Property("cursor", .string("The nextCursor of the previous page.")),
            ],
            result: listPageSchema, errors: ["invalid_params", "not_found"]
        ))

    /// `tweets.fetch`.
    public static let fetch = RPCMethod<FetchParams, TweetPage>(
        MethodDescriptor(
            "tweets.fetch",
            summary: "Tweets, newest first: the whole feed or one author's, newer than sinceId, older than maxId.",
            params: [
                Property("sinceId", .integer("Only tweets newer than this id (pull to refresh).", minimum: 0)),
                Property("maxId", .integer("Only tweets older than this id (paging back).", minimum: 0)),
                API.PageSize.tweets.property,
                Property("author", .string("Only this username's tweets.")),
            ],
            result: pageSchema, errors: ["invalid_params", "not_found"]
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
            errors: ["forbidden", "not_found"], rate: .deletes
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

    // @MemberwiseInit
    /// `tweets.deleted`: a tweet the subscription may have shown is gone.
    public struct TweetDeleted: Codable, Sendable, Equatable {
        /// The subscription this notification belongs to.
        public var subscription: Int
        /// The id of the deleted tweet.
        public var id: Int64
    }

    // @MemberwiseInit
    /// `tweets.lagged`: the subscriber fell behind and the subscription ended; fetch from `resumeFrom`.
    public struct Lagged: Codable, Sendable, Equatable {
        /// The subscription this notification belongs to.
        public var subscription: Int
        /// The last id delivered; fetch with sinceId from here.
        public var resumeFrom: Int64
    }

    /// `tweets.new`.
    public static let new = RPCNotification<NewTweet>("tweets.new")
    /// `tweets.deleted`.
    public static let deleted = RPCNotification<TweetDeleted>("tweets.deleted")
    /// `tweets.lagged`.
    public static let lagged = RPCNotification<Lagged>("tweets.lagged")
}

// Replies, threads, likes and reposts.
extension API.Tweets {
    /// `tweets.likedBy`'s params.
    public typealias LikedByParams = API.IDPageParams

    // @MemberwiseInit
    /// `tweets.like`'s and `tweets.unlike`'s answer.
    public struct Liked: Codable, Sendable, Equatable {
        /// Whether the caller likes the tweet now.
        public var liked: Bool
        /// The tweet's likes now.
        public var likesCount: Int
    }

    // @MemberwiseInit
    /// `tweets.unrepost`'s answer.
    public struct Reposted: Codable, Sendable, Equatable {
        /// Whether the caller has reposted the tweet now: always false.
        public var reposted: Bool
    }

    /// One place in a thread: a tweet, or a deleted tweet that keeps the conversation's shape.
    public enum ThreadItem: Decodable, Sendable, Equatable {
        /// A tweet.
        case tweet(Tweet)
        /// `{id, deleted: true, inReplyToId}`.
        case deleted(id: Int64, inReplyToId: Int64?)

        enum CodingKeys: String, CodingKey { case id, deleted, inReplyToId }

        /// Decodes either shape.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if try container.decodeIfPresent(Bool.self, forKey: .deleted) == true {
                self = .deleted(
                    id: try container.decode(Int64.self, forKey: .id),
                    inReplyToId: try container.decodeIfPresent(Int64.self, forKey: .inReplyToId))
            } else {
                self = .tweet(try Tweet(from: decoder))
            }
        }

        /// The item's tweet id.
        public var id: Int64 {
            switch self {
            case .tweet(let tweet): tweet.id
            case .deleted(let id, _): id
            }
        }

        /// The id of the tweet it answers.
        public var inReplyToId: Int64? {
            switch self {
            case .tweet(let tweet): tweet.inReplyToID
            case .deleted(_, let parent): parent
            }
        }
    }

    /// `tweets.thread`'s answer.
    public struct Thread: Decodable, Sendable, Equatable {
        /// Root first.
        public var ancestors: [ThreadItem]
        /// The tweet asked for (the original, when a repost was asked for).
        public var tweet: Tweet
        /// Depth first, siblings oldest first, at most 200.
        public var descendants: [ThreadItem]
        /// True when there were more than 200 descendants.
        public var truncated: Bool?
    }

    static let threadItemSchema = Schema(
        .oneOf([
            tweetSchema,
            .object(
                [
                    Property("id", .integer(), required: true),
                    Property("deleted", .boolean("Always true."), required: true),
                    Property("inReplyToId", Schema.integer().orNull(), required: true),
                ], "A deleted tweet, kept so the conversation keeps its shape.", title: "DeletedTweet"),
        ]))

    /// `tweets.thread`.
    public static let thread = RPCMethod<IDParams, Thread>(
        MethodDescriptor(
            "tweets.thread", summary: "A tweet with the conversation around it: ancestors and descendants.",
            params: [Property("id", .integer(), required: true)],
            result: .object(
                [
                    Property("ancestors", .array(of: threadItemSchema, "Root first."), required: true),
                    Property("tweet", tweetSchema, required: true),
                    Property(
                        "descendants",
                        .array(of: threadItemSchema, "Depth first, siblings oldest first, at most 200."),
                        required: true),
                    Property("truncated", .boolean("True when there were more than 200 descendants.")),
                ], title: "Thread"),
            positional: true, errors: ["not_found"]
        ))

    static let likedSchema = Schema.object(
        [
            Property("liked", .boolean(), required: true),
            Property("likesCount", .integer(), required: true),
        ], title: "Liked")

    /// `tweets.like`.
    public static let like = RPCMethod<IDParams, Liked>(
        MethodDescriptor(
            "tweets.like", summary: "Likes a tweet (a repost's original); liking again changes nothing.",
            params: [Property("id", .integer(), required: true)], result: likedSchema, positional: true,
            errors: ["not_found"], rate: .likes
        ))

    /// `tweets.unlike`.
    public static let unlike = RPCMethod<IDParams, Liked>(
        MethodDescriptor(
            "tweets.unlike", summary: "Takes a like back; unliking again changes nothing.",
            params: [Property("id", .integer(), required: true)], result: likedSchema, positional: true,
            errors: ["not_found"], rate: .likes
        ))

    /// `tweets.likedBy`.
    public static let likedBy = RPCMethod<LikedByParams, API.Users.UserPage>(
        MethodDescriptor(
            "tweets.likedBy", summary: "Who liked a tweet, newest like first.",
            params: [Property("id", .integer(), required: true)] + pageParams, result: userPageSchema,
            errors: ["invalid_params", "not_found"]
        ))

    /// `tweets.liked`'s params.
    public typealias LikedParams = API.PageParams

    /// `tweets.liked`.
    public static let liked = RPCMethod<LikedParams, TweetListPage>(
        MethodDescriptor(
            "tweets.liked",
            summary: "The tweets the caller likes, newest like first; deleted and hidden tweets are left out.",
            params: [
                API.PageSize.tweets.property,
                Property("cursor", .string("The nextCursor of the previous page.")),
            ],
            result: listPageSchema, errors: ["invalid_params"]
        ))

    /// `tweets.repostedBy`.
    public static let repostedBy = RPCMethod<LikedByParams, API.Users.UserPage>(
        MethodDescriptor(
            "tweets.repostedBy", summary: "Who reposted a tweet, newest repost first.",
            params: [Property("id", .integer(), required: true)] + pageParams, result: userPageSchema,
            errors: ["invalid_params", "not_found"]
        ))

    /// `tweets.repost`.
    public static let repost = RPCMethod<IDParams, Tweet>(
        MethodDescriptor(
            "tweets.repost",
            summary: "Reposts a tweet: a tweet of the caller's with repostOf set; reposting again returns the same.",
            params: [Property("id", .integer(), required: true)], result: tweetSchema, positional: true,
            errors: ["not_found"], rate: .reposts, sharesCommits: true
        ))

    /// `tweets.unrepost`.
    public static let unrepost = RPCMethod<IDParams, Reposted>(
        MethodDescriptor(
            "tweets.unrepost", summary: "Deletes the caller's repost of a tweet (the original's id).",
            params: [Property("id", .integer(), required: true)],
            result: .object([Property("reposted", .boolean("Always false."), required: true)]), positional: true,
            errors: ["not_found"], rate: .reposts
        ))
}
