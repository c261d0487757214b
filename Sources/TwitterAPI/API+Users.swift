import JSONRPC
import TwitterCore

extension API.Users {
    // @MemberwiseInit
    /// The params of a method on one account.
    public struct UsernameParams: Codable, Sendable {
        /// The account's username, in any case.
        public var username: String
    }

    // @MemberwiseInit
    /// `users.followers`' and `users.following`'s params.
    public struct ListParams: Codable, Sendable {
        /// Whose followers, or whom they follow.
        public var username: String
        /// How many, 1 to 200; 40 when nil.
        public var limit: Int?
        /// The `nextCursor` of the previous page.
        public var cursor: String?
    }

    // @MemberwiseInit
    /// `users.follow`'s and `users.unfollow`'s answer.
    public struct Following: Codable, Sendable, Equatable {
        /// Whether the caller follows the account now.
        public var following: Bool
    }

    // @MemberwiseInit
    /// A page of people, newest relationship first.
    public struct UserPage: Codable, Sendable, Equatable {
        /// The people.
        public var users: [UserSummary]
        /// Pass as `cursor` for the next page; nil at the end.
        @NullWhenAbsent public var nextCursor: String? = nil
    }

    static let usernameParam = [Property("username", .string("The account, in any case."), required: true)]

    /// `users.get`.
    public static let get = RPCMethod<UsernameParams, UserOverview>(
        MethodDescriptor(
            "users.get", summary: "An account's public profile, counts, and how it relates to you.",
            params: usernameParam,
            result: .object(
                [
                    Property("username", .string(), required: true),
                    Property("firstName", .string(), required: true),
                    Property("lastName", .string(), required: true),
                    Property("bio", .string(), required: true),
                    Property("createdAt", .timestamp(), required: true),
                    Property("followersCount", .integer(), required: true),
                    Property("followingCount", .integer(), required: true),
                    Property("tweetsCount", .integer("Tweets, replies and reposts."), required: true),
                    Property("followedByMe", .boolean("Whether you follow it."), required: true),
                    Property("followsMe", .boolean("Whether it follows you."), required: true),
                    Property("mutedByMe", .boolean("Whether you mute it."), required: true),
                    Property("blockedByMe", .boolean("Whether you block it."), required: true),
                    Property(
                        "pinnedTweet",
                        API.Tweets.tweetSchema.orNull(),
                        required: true),
                ], title: "UserOverview"),
            positional: true, errors: ["not_found"]
        ))

    static let followingSchema = Schema.object([Property("following", .boolean(), required: true)])

    /// `users.follow`.
    public static let follow = RPCMethod<UsernameParams, Following>(
        MethodDescriptor(
            "users.follow", summary: "Follows an account; following again changes nothing.",
            params: usernameParam, result: followingSchema, positional: true,
            errors: ["invalid_params", "not_found"], rate: .follows
        ))

    /// `users.unfollow`.
    public static let unfollow = RPCMethod<UsernameParams, Following>(
        MethodDescriptor(
            "users.unfollow", summary: "Stops following an account; unfollowing again changes nothing.",
            params: usernameParam, result: followingSchema, positional: true, errors: ["not_found"], rate: .follows
        ))

    /// `users.followers`.
    public static let followers = RPCMethod<ListParams, UserPage>(
        MethodDescriptor(
            "users.followers", summary: "Who follows an account, newest follow first.",
            params: usernameParam + API.Tweets.pageParams, result: API.Tweets.userPageSchema,
            errors: ["invalid_params", "not_found"]
        ))

    /// `users.following`.
    public static let following = RPCMethod<ListParams, UserPage>(
        MethodDescriptor(
            "users.following", summary: "Whom an account follows, newest follow first.",
            params: usernameParam + API.Tweets.pageParams, result: API.Tweets.userPageSchema,
            errors: ["invalid_params", "not_found"]
        ))

    // @MemberwiseInit
    /// `users.mute`'s, `users.unmute`'s, `users.block`'s and `users.unblock`'s answer.
    public struct Relation: Codable, Sendable, Equatable {
        /// Whether you mute the account now (for mute and unmute).
        public var muted: Bool?
        /// Whether you block the account now (for block and unblock).
        public var blocked: Bool?
    }

    /// `users.muted`'s and `users.blocked`'s params.
    public typealias OwnListParams = API.PageParams

    static func relation(
        _ name: String, summary: String, member: String, errors: [String], rate: RateLimitedAction
    ) -> RPCMethod<
        UsernameParams, Relation
    > {
        RPCMethod(
            MethodDescriptor(
                name, summary: summary, params: usernameParam,
                result: .object([Property(member, .boolean(), required: true)]), positional: true, errors: errors,
                rate: rate))
    }

    /// `users.mute`.
    public static let mute = relation(
        "users.mute",
        summary: "Mutes an account: its tweets, reposts and notifications disappear for you; follows stay.",
        member: "muted", errors: ["invalid_params", "not_found"], rate: .mutes)
    /// `users.unmute`.
    public static let unmute = relation(
        "users.unmute", summary: "Ends a mute; everything it hid comes back.", member: "muted",
        errors: ["invalid_params", "not_found"], rate: .mutes)
    /// `users.block`.
    public static let block = relation(
        "users.block",
        summary:
            "Blocks an account: neither of you sees the other, it can not follow or answer you, and follows end both ways.",
        member: "blocked", errors: ["invalid_params", "not_found"], rate: .blocks)
    /// `users.unblock`.
    public static let unblock = relation(
        "users.unblock", summary: "Ends a block; the follows it ended stay ended.", member: "blocked",
        errors: ["invalid_params", "not_found"], rate: .blocks)

    /// `users.muted`.
    public static let muted = RPCMethod<OwnListParams, UserPage>(
        MethodDescriptor(
            "users.muted", summary: "Whom you mute, newest mute first.", params: API.Tweets.pageParams,
            result: API.Tweets.userPageSchema, errors: ["invalid_params"]
        ))

    /// `users.blocked`.
    public static let blocked = RPCMethod<OwnListParams, UserPage>(
        MethodDescriptor(
            "users.blocked", summary: "Whom you block, newest block first.", params: API.Tweets.pageParams,
            result: API.Tweets.userPageSchema, errors: ["invalid_params"]
        ))
}
