import JSONRPC
import TwitterCore

extension API {
    /// `bookmarks.*`: the tweets a caller keeps for later, known to the caller alone.
    public enum Bookmarks {}
}

extension API.Bookmarks {
    // @MemberwiseInit
    /// `bookmarks.add`'s and `bookmarks.remove`'s answer.
    public struct Bookmarked: Codable, Sendable, Equatable {
        /// Whether the caller has the tweet bookmarked now.
        public var bookmarked: Bool
    }

    /// `bookmarks.list`'s params.
    public typealias ListParams = API.PageParams

    static let bookmarkedSchema = Schema.object(
        [Property("bookmarked", .boolean(), required: true)], title: "Bookmarked")

    /// `bookmarks.add`.
    public static let add = RPCMethod<API.Tweets.IDParams, Bookmarked>(
        MethodDescriptor(
            "bookmarks.add", summary: "Bookmarks a tweet (a repost's original); nobody else learns of it.",
            params: [Property("id", .integer(), required: true)], result: bookmarkedSchema, positional: true,
            errors: ["not_found"], rate: .bookmarks
        ))

    /// `bookmarks.remove`.
    public static let remove = RPCMethod<API.Tweets.IDParams, Bookmarked>(
        MethodDescriptor(
            "bookmarks.remove", summary: "Takes a bookmark back; removing again changes nothing.",
            params: [Property("id", .integer(), required: true)], result: bookmarkedSchema, positional: true,
            errors: ["not_found"], rate: .bookmarks
        ))

    /// `bookmarks.list`.
    public static let list = RPCMethod<ListParams, API.Tweets.TweetListPage>(
        MethodDescriptor(
            "bookmarks.list",
            summary: "The caller's bookmarks, newest bookmark first; deleted and hidden tweets are left out.",
            params: [
                API.PageSize.tweets.property,
                Property("cursor", .string("The nextCursor of the previous page.")),
            ],
            result: API.Tweets.listPageSchema, errors: ["invalid_params"]
        ))
}

extension API.Tweets {
    // @MemberwiseInit
    /// A page of tweets read by cursor (`bookmarks.list`, `tweets.quotes`, `search.tweets`):
    /// `{"nextCursor","tweets"}`.
    ///
    /// For bookmarks and quotes the daemon writes these bytes itself (`TweetListAnswer`), every tweet with the
    /// caller's marks.
    public struct TweetListPage: Codable, Sendable, Equatable {
        /// The tweets, in the list's order: for a search, best match first, then newest.
        public var tweets: [Tweet]
        /// Pass as `cursor` for the next page; nil at the end.
        @NullWhenAbsent public var nextCursor: String? = nil
    }

    static let listPageSchema = Schema.object(
        [
            Property("tweets", .array(of: tweetSchema), required: true),
            Property(
                "nextCursor", Schema.string("Pass as cursor for the next page; null at the end.").orNull(),
                required: true),
        ], title: "TweetListPage")
}
