import Foundation
import JSONRPC
import TwitterCore

extension API.Reports {
    // @MemberwiseInit
    /// `reports.create`'s params: an account, a tweet, or both (then the tweet must be the account's).
    public struct CreateParams: Codable, Sendable {
        /// The account reported.
        public var username: String?
        /// The tweet reported.
        public var tweetId: Int64?
        /// A direct message of a conversation the reporter is in, shown to the admins with the report.
        public var messageId: Int64?
        /// Why; 1 to 500 characters.
        public var reason: String
    }

    // @MemberwiseInit
    /// `reports.create`'s answer.
    public struct Created: Codable, Sendable, Equatable {
        /// The report's id.
        public var id: Int64
    }

    /// `reports.create`.
    public static let create = RPCMethod<CreateParams, Created>(
        MethodDescriptor(
            "reports.create", summary: "Reports an account or a tweet to the admins, who are notified.",
            params: [
                Property("username", .string("The account reported.")),
                Property("tweetId", .integer("The tweet reported.")),
                Property(
                    "messageId",
                    .integer("A message of one of your conversations: its text is shown to the admins with the report.")
                ),
                API.Admin.reasonParam,
            ], result: .object([Property("id", .integer("The report's id."), required: true)]),
            errors: ["invalid_params", "not_found", "rate_limited"], rate: .reports))
}

extension API.Account {
    // @MemberwiseInit
    /// `account.export`'s params.
    public struct ExportParams: Codable, Sendable {
        /// The `nextCursor` of the previous page; nil for the first.
        public var cursor: String?
    }

    // @MemberwiseInit
    /// `account.delete`'s params: the password, or for an account without one, its username.
    public struct DeleteParams: Codable, Sendable {
        /// The account's password.
        public var password: String?
        /// The account's username, for accounts without a password.
        public var confirm: String?
    }

    // @MemberwiseInit
    /// `account.delete`'s answer.
    public struct Deleted: Codable, Sendable, Equatable {
        /// Always true.
        public var deleted: Bool
        /// Until when no one can take the username.
        public var usernameReservedUntil: Date
    }

    static let relationSchema = Schema.object(
        [Property("username", .string(), required: true), Property("createdAt", .timestamp(), required: true)],
        title: "ArchivedRelation")

    /// One of the account's tweets: a tweet, whose `repostOf` may be the placeholder of an original the account
    /// may no longer see.
    static let archivedTweetSchema = Schema.object(
        API.Tweets.tweetProperties(
            repostOf: Schema(
                .oneOf([
                    API.Tweets.originalSchema,
                    .object(
                        [
                            Property("id", .integer(), required: true),
                            Property("unavailable", .boolean("Always true."), required: true),
                        ], "An original the account may no longer see (across a block), without its content.",
                        title: "UnavailableOriginal"),
                    Schema(.null),
                ]))),
        title: "ArchivedTweet")

    static let conversationsNote =
        "The conversations the account is in, after every other list, at most 100 entries a page: one for a "
        + "conversation beginning on the page, one per message. One too long for a page goes on at the start of "
        + "the next, with the same id."

    /// One conversation of the archive, with this page's messages of it.
    static let archivedConversationSchema = Schema.object(
        [
            Property("id", .integer(), required: true),
            Property("participants", .array(of: .string()), required: true),
            Property(
                "messages",
                .array(
                    of: .object(
                        [
                            Property("id", .integer(), required: true),
                            Property("sender", .string(), required: true),
                            Property("text", Schema.string("Null once deleted.").orNull()),
                            Property("createdAt", .timestamp(), required: true),
                        ], title: "ArchivedMessage"), "Oldest first."), required: true),
        ], title: "ArchivedConversation")

    /// `account.export`.
    public static let export = RPCMethod<ExportParams, AccountArchivePage>(
        MethodDescriptor(
            "account.export",
            summary:
                "The caller's data as an archive, page by page: profile, tweets, follows, likes, mutes, blocks, bookmarks, lists, conversations.",
            params: [Property("cursor", .string("The nextCursor of the previous page; absent for the first."))],
            result: .object([
                Property("profile", API.Profiles.profileSchema.orNull(), required: true),
                Property("tweets", .array(of: archivedTweetSchema), required: true),
                Property("follows", .array(of: relationSchema), required: true),
                Property(
                    "likes",
                    .array(
                        of: .object(
                            [
                                Property("tweetId", .integer(), required: true),
                                Property("createdAt", .timestamp(), required: true),
                            ], title: "ArchivedLike")), required: true),
                Property("mutes", .array(of: relationSchema), required: true),
                Property("blocks", .array(of: relationSchema), required: true),
                Property(
                    "bookmarks",
                    .array(
                        of: .object(
                            [
                                Property("tweetId", .integer(), required: true),
                                Property("createdAt", .timestamp(), required: true),
                            ], title: "ArchivedBookmark")), required: true),
                Property(
                    "lists",
                    .array(
                        of: .object(
                            [
                                Property("id", .integer(), required: true),
                                Property("name", .string(), required: true),
                                Property("description", .string(), required: true),
                                Property("private", .boolean(), required: true),
                                Property("createdAt", .timestamp(), required: true),
                                Property("members", .array(of: relationSchema), required: true),
                            ], title: "ArchivedList"),
                        "The lists the account owns, each with its members."), required: true),
                Property("conversations", .array(of: archivedConversationSchema, conversationsNote), required: true),
                Property(
                    "nextCursor", Schema.string("Pass as cursor for the next page; null on the last.").orNull(),
                    required: true),
            ]), errors: ["invalid_params"]))

    /// `account.delete`.
    public static let delete = RPCMethod<DeleteParams, Deleted>(
        MethodDescriptor(
            "account.delete",
            summary:
                "Deletes the caller's account and everything it made, and ends its connections; the username stays reserved for 30 days.",
            params: [
                Property("password", .string("The account's password.")),
                Property("confirm", .string("For an account without a password: its username.")),
            ],
            result: .object([
                Property("deleted", .boolean(), required: true),
                Property("usernameReservedUntil", .timestamp(), required: true),
            ]), errors: ["invalid_params", "invalid_credentials"]))
}

extension API.Auth {
    // @MemberwiseInit
    /// `auth.resetPassword`'s params.
    public struct ResetPasswordParams: Codable, Sendable {
        /// The account's e-mail.
        public var email: String
        /// The code from `admin.users.resetPassword`.
        public var code: String
        /// The new password.
        public var newPassword: String
    }

    /// `auth.resetPassword`.
    public static let resetPassword = RPCMethod<ResetPasswordParams, PasswordChanged>(
        MethodDescriptor(
            "auth.resetPassword",
            summary: "Sets a new password with a one-time code from an admin, and ends every session of the account.",
            params: [
                Property("email", .string(), required: true),
                Property("code", .string("The one-time code."), required: true),
                Property("newPassword", .string("8 to 128 characters."), required: true),
            ],
            result: .object([Property("passwordChanged", .boolean(), required: true)]), access: .open,
            errors: ["invalid_params", "invalid_credentials", "rate_limited"]))
}
