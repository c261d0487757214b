import JSONRPC
import TwitterCore

extension API {
    /// `web.*`: what the public web pages show, read as nobody, without a login. The layer, not the pages,
    /// decides what is on them: a logged-out reader's view, less every account that keeps itself off the web
    /// (`profile.update {webVisible: false}`).
    public enum Web {}
}

extension API.Web {
    // @MemberwiseInit
    /// `web.timeline`'s params: one account's tweets, one tag's, or everyone's.
    public struct TimelineParams: Codable, Sendable {
        /// Whose tweets and reposts; everyone's when nil (and `tag` nil).
        public var username: String?
        /// One tag's tweets, with or without `#`.
        public var tag: String?
        /// Only tweets older than this id.
        public var maxId: Int64?
        /// How many, 1 to 200; 20 when nil.
        public var limit: Int?
    }

    /// `web.user`.
    public static let user = RPCMethod<API.Users.UsernameParams, UserOverview>(
        MethodDescriptor(
            "web.user",
            summary:
                "An account's public profile, counts and pinned tweet as nobody sees them; not_found when the account "
                + "keeps itself off the web.",
            params: [Property("username", .string(), required: true)],
            result: API.Users.get.descriptor.result, access: .open, errors: ["not_found"]
        ))

    /// `web.timeline`.
    public static let timeline = RPCMethod<TimelineParams, API.Tweets.TweetPage>(
        MethodDescriptor(
            "web.timeline",
            summary:
                "One account's, one tag's or everyone's tweets as nobody sees them, without those of accounts that "
                + "keep themselves off the web (web.user carries the pinned tweet).",
            params: [
                Property("username", .string("Whose tweets; not_found when off the web.")),
                Property("tag", .string("One tag's tweets.")),
                Property("maxId", .integer("Only tweets older than this id (paging back).", minimum: 0)),
                API.PageSize.tweets.property,
            ],
            result: API.Tweets.pageSchema, access: .open, errors: ["invalid_params", "not_found"]
        ))

    /// `web.thread`.
    public static let thread = RPCMethod<API.Tweets.IDParams, API.Tweets.Thread>(
        MethodDescriptor(
            "web.thread",
            summary:
                "A tweet and its conversation as nobody sees them; the tweets of accounts off the web are left out "
                + "as deleted ones, and the tweet itself is not_found.",
            params: [Property("id", .integer(), required: true)],
            result: API.Tweets.thread.descriptor.result, access: .open, errors: ["not_found"]
        ))
}
