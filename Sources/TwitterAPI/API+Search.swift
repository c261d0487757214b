import JSONRPC
import TwitterCore

extension API.Search {
    // @MemberwiseInit
    /// `search.tweets`' params.
    public struct TweetsParams: Codable, Sendable {
        /// Words, `"a phrase"`, `from:username`, `#tag`, `-word`.
        public var query: String
        /// How many, 1 to 100; 20 when nil.
        public var limit: Int?
        /// The `nextCursor` of the previous page.
        public var cursor: String?
    }

    /// `search.tweets`' answer: a page of tweets by cursor, best match first, then newest.
    public typealias TweetResults = API.Tweets.TweetListPage

    // @MemberwiseInit
    /// `search.users`' params.
    public struct UsersParams: Codable, Sendable {
        /// The start of a username, first name or last name, in any case.
        public var query: String
        /// How many, 1 to 100; 20 when nil.
        public var limit: Int?
    }

    // @MemberwiseInit
    /// `search.users`' answer.
    public struct UserResults: Codable, Sendable, Equatable {
        /// Username matches first, then by username.
        public var users: [UserSummary]
    }

    /// `search.tweets`.
    public static let tweets = RPCMethod<TweetsParams, TweetResults>(
        MethodDescriptor(
            "search.tweets",
            summary:
                "Tweets matching every word (case and diacritics ignored), \"a phrase\", from:username, #tag and -word; best match first, then newest.",
            params: [
                Property("query", .string("The query, at most 500 characters."), required: true),
                API.PageSize.search.property,
                Property("cursor", .string("The nextCursor of the previous page.")),
            ],
            result: .object(
                [
                    Property("tweets", .array(of: API.Tweets.tweetSchema), required: true),
                    Property(
                        "nextCursor", Schema.string("Pass as cursor for more; null at the end.").orNull(),
                        required: true),
                ], title: "TweetResults"),
            errors: ["invalid_params", "not_found"]
        ))

    /// `search.users`.
    public static let users = RPCMethod<UsersParams, UserResults>(
        MethodDescriptor(
            "search.users", summary: "Accounts whose username, first or last name starts with the query.",
            params: [
                Property("query", .string("A prefix, at least one character."), required: true),
                API.PageSize.search.property,
            ],
            result: .object(
                [Property("users", .array(of: API.Tweets.userSummarySchema), required: true)], title: "UserResults"),
            errors: ["invalid_params"]
        ))
}

extension API.Tags {
    // @MemberwiseInit
    /// `tags.tweets`' params.
    public struct TweetsParams: Codable, Sendable {
        /// The tag, with or without `#`, in any case or width.
        public var tag: String
        /// Only tweets newer than this id.
        public var sinceId: Int64?
        /// Only tweets older than this id.
        public var maxId: Int64?
        /// How many, 1 to 200; 20 when nil.
        public var limit: Int?
    }

    // @MemberwiseInit
    /// `tags.trending`' params.
    public struct TrendingParams: Codable, Sendable {
        /// The window, 1 to 168 hours; 24 when nil.
        public var hours: Int?
        /// How many tags, 1 to 100; 10 when nil.
        public var limit: Int?
    }

    // @MemberwiseInit
    /// `tags.trending`' answer.
    public struct Trending: Codable, Sendable, Equatable {
        /// The tags, most used by distinct accounts first.
        public var tags: [TrendingTag]
    }

    /// `tags.tweets`.
    public static let tweets = RPCMethod<TweetsParams, API.Tweets.TweetPage>(
        MethodDescriptor(
            "tags.tweets", summary: "The tweets carrying a hashtag, newest first; a page like tweets.fetch.",
            params: [
                Property("tag", .string("The tag, with or without #; case and width do not matter."), required: true),
                Property("sinceId", .integer("Only tweets newer than this id.", minimum: 0)),
                Property("maxId", .integer("Only tweets older than this id.", minimum: 0)),
                API.PageSize.tweets.property,
            ],
            result: API.Tweets.pageSchema, errors: ["invalid_params"]
        ))

    /// `tags.trending`.
    public static let trending = RPCMethod<TrendingParams, Trending>(
        MethodDescriptor(
            "tags.trending",
            summary: "The tags of the last hours, ranked by how many accounts used them, then by tweets.",
            params: [
                Property("hours", .integer("The window, 1 to 168 hours; 24 when absent.", minimum: 1, maximum: 168)),
                API.PageSize.tags.property,
            ],
            result: .object(
                [
                    Property(
                        "tags",
                        .array(
                            of: .object(
                                [
                                    Property("tag", .string("The tag, case-folded."), required: true),
                                    Property("tweetsCount", .integer(), required: true),
                                    Property("usersCount", .integer("Distinct accounts."), required: true),
                                ], title: "TrendingTag")), required: true)
                ], title: "Trending"),
            errors: ["invalid_params"]
        ))
}
