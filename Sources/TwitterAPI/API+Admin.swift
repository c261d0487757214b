import Foundation
import JSONRPC
import TwitterCore

extension API {
    /// `admin.*`: moderation, for admins only.
    public enum Admin {}
    /// `reports.*`: any user's reports to the admins.
    public enum Reports {}
    /// `account.*`: the caller's own account as a whole.
    public enum Account {}
}

extension API.Admin {
    // @MemberwiseInit
    /// An account as admins see it.
    public struct User: Codable, Sendable, Equatable {
        /// The public handle.
        public var username: String
        /// The e-mail it signed up with.
        public var email: String
        /// `user` or `admin`, as the configuration names admins by username (group and uid 0 admins show as
        /// `user` until they log in).
        public var role: AccountRole
        /// `active` or `suspended`.
        public var status: AccountStatus
        /// When it signed up.
        public var createdAt: Date
        /// Why it is suspended; null when active.
        @NullWhenAbsent public var suspendedReason: String? = nil
    }

    // @MemberwiseInit
    /// `admin.users.list`'s params.
    public struct UserListParams: Codable, Sendable {
        /// Part of the username or e-mail, any case.
        public var query: String?
        /// Only accounts of this status.
        public var status: AccountStatus?
        /// How many, 1 to 200; 40 when nil.
        public var limit: Int?
        /// The `nextCursor` of the previous page.
        public var cursor: String?
    }

    // @MemberwiseInit
    /// `admin.users.list`'s answer.
    public struct UserPage: Codable, Sendable, Equatable {
        /// Newest account first.
        public var users: [User]
        /// Pass as `cursor` for the next page; nil at the end.
        @NullWhenAbsent public var nextCursor: String? = nil
    }

    // @MemberwiseInit
    /// `admin.users.suspend`'s params.
    public struct SuspendParams: Codable, Sendable {
        /// The account.
        public var username: String
        /// Why: shown to the account when it tries to log in, and kept in the audit log.
        public var reason: String
    }

    // @MemberwiseInit
    /// `admin.users.resetPassword`'s answer.
    public struct ResetCode: Codable, Sendable, Equatable {
        /// The one-time code, shown only here: hand it to the account's owner.
        public var code: String
        /// When it stops working.
        public var expiresAt: Date
    }

    // @MemberwiseInit
    /// `admin.tweets.delete`'s params.
    public struct DeleteTweetParams: Codable, Sendable {
        /// The tweet.
        public var id: Int64
        /// Why, for the audit log.
        public var reason: String
    }

    // @MemberwiseInit
    /// `admin.reports.list`'s params.
    public struct ReportListParams: Codable, Sendable {
        /// Only reports of this status.
        public var status: ReportStatus?
        /// How many, 1 to 200; 40 when nil.
        public var limit: Int?
        /// The `nextCursor` of the previous page.
        public var cursor: String?
    }

    // @MemberwiseInit
    /// `admin.reports.list`'s answer.
    public struct ReportPage: Codable, Sendable, Equatable {
        /// Newest first.
        public var reports: [TwitterCore.Report]
        /// Pass as `cursor` for the next page; nil at the end.
        @NullWhenAbsent public var nextCursor: String? = nil
    }

    // @MemberwiseInit
    /// `admin.reports.resolve`'s params.
    public struct ResolveParams: Codable, Sendable {
        /// The report.
        public var id: Int64
        /// What was done, for the reporter's record and the audit log.
        public var note: String?
    }

    /// `admin.audit.list`'s params.
    public typealias AuditListParams = API.PageParams

    // @MemberwiseInit
    /// `admin.audit.list`'s answer.
    public struct AuditPage: Codable, Sendable, Equatable {
        /// Newest first.
        public var entries: [TwitterCore.AuditEntry]
        /// Pass as `cursor` for the next page; nil at the end.
        @NullWhenAbsent public var nextCursor: String? = nil
    }

    static let nextCursor = Property(
        "nextCursor", Schema.string("Pass as cursor for the next page; null at the end.").orNull(), required: true)

    static let userSchema = Schema.object(
        [
            Property("username", .string(), required: true),
            Property("email", .string(), required: true),
            Property("role", .oneOfStrings(AccountRole.allCases.map(\.rawValue)), required: true),
            Property("status", .oneOfStrings(AccountStatus.allCases.map(\.rawValue)), required: true),
            Property("createdAt", .timestamp(), required: true),
            Property("suspendedReason", Schema.string().orNull(), required: true),
        ], title: "AdminUser")

    static let reportSchema = Schema.object(
        [
            Property("id", .integer(), required: true),
            Property("reporter", .string(), required: true),
            Property("username", .string("The account reported, or the tweet's author."), required: true),
            Property("tweetId", Schema.integer().orNull(), required: true),
            Property("reason", .string(), required: true),
            Property("status", .oneOfStrings(ReportStatus.allCases.map(\.rawValue)), required: true),
            Property("createdAt", .timestamp(), required: true),
            Property("note", Schema.string().orNull(), required: true),
        ], title: "Report")

    static let usernameParam = Property("username", .string("The account, in any case."), required: true)
    static let reasonParam = Property("reason", .string("Why; one line of 1 to 500 characters."), required: true)

    /// `admin.users.list`.
    public static let usersList = RPCMethod<UserListParams, UserPage>(
        MethodDescriptor(
            "admin.users.list", summary: "Accounts, newest first, by part of the username or e-mail and by status.",
            params: [
                Property("query", .string("Part of the username or e-mail, any case.")),
                Property("status", .oneOfStrings(AccountStatus.allCases.map(\.rawValue))),
            ] + API.Tweets.pageParams,
            result: .object([Property("users", .array(of: userSchema), required: true), nextCursor]),
            access: .admin, errors: ["invalid_params", "forbidden"]))

    /// `admin.users.suspend`.
    public static let suspend = RPCMethod<SuspendParams, User>(
        MethodDescriptor(
            "admin.users.suspend",
            summary:
                "Suspends an account: it cannot log in, its live connections end, and its content vanishes until unsuspended.",
            params: [usernameParam, reasonParam], result: userSchema, access: .admin,
            errors: ["invalid_params", "forbidden", "not_found"]))

    /// `admin.users.unsuspend`.
    public static let unsuspend = RPCMethod<API.Users.UsernameParams, User>(
        MethodDescriptor(
            "admin.users.unsuspend", summary: "Lifts a suspension: the account and its content come back unchanged.",
            params: [usernameParam], result: userSchema, access: .admin, errors: ["forbidden", "not_found"]))

    /// `admin.users.resetPassword`.
    public static let resetPassword = RPCMethod<API.Users.UsernameParams, ResetCode>(
        MethodDescriptor(
            "admin.users.resetPassword",
            summary: "A one-time code, valid one hour, with which the account's owner sets a new password.",
            params: [usernameParam],
            result: .object([
                Property("code", .string("Shown once; stored only as a hash."), required: true),
                Property("expiresAt", .timestamp(), required: true),
            ]), access: .admin, errors: ["forbidden", "not_found"]))

    /// `admin.tweets.delete`, which answers like `tweets.delete`.
    public static let deleteTweet = RPCMethod<DeleteTweetParams, API.Tweets.Deleted>(
        MethodDescriptor(
            "admin.tweets.delete", summary: "Deletes anyone's tweet, as its author's deletion would.",
            params: [Property("id", .integer(), required: true), reasonParam],
            result: .object([Property("deleted", .boolean(), required: true)]), access: .admin,
            errors: ["invalid_params", "forbidden", "not_found"]))

    /// `admin.reports.list`.
    public static let reportsList = RPCMethod<ReportListParams, ReportPage>(
        MethodDescriptor(
            "admin.reports.list", summary: "Reports, newest first.",
            params: [Property("status", .oneOfStrings(ReportStatus.allCases.map(\.rawValue)))] + API.Tweets.pageParams,
            result: .object([Property("reports", .array(of: reportSchema), required: true), nextCursor]),
            access: .admin, errors: ["invalid_params", "forbidden"]))

    /// `admin.reports.resolve`.
    public static let resolve = RPCMethod<ResolveParams, TwitterCore.Report>(
        MethodDescriptor(
            "admin.reports.resolve", summary: "Marks a report resolved, with a note on what was done.",
            params: [
                Property("id", .integer(), required: true),
                Property("note", .string("What was done; up to 500 characters.")),
            ], result: reportSchema, access: .admin, errors: ["invalid_params", "forbidden", "not_found"]))

    /// `admin.audit.list`.
    public static let auditList = RPCMethod<AuditListParams, AuditPage>(
        MethodDescriptor(
            "admin.audit.list", summary: "The admins' actions, newest first.", params: API.Tweets.pageParams,
            result: .object([
                Property(
                    "entries",
                    .array(
                        of: .object(
                            [
                                Property("id", .integer(), required: true),
                                Property("actor", .string("The admin."), required: true),
                                Property("action", .string("The method."), required: true),
                                Property("target", .string(), required: true),
                                Property("reason", Schema.string().orNull(), required: true),
                                Property("createdAt", .timestamp(), required: true),
                            ], title: "AuditEntry")), required: true),
                nextCursor,
            ]), access: .admin, errors: ["invalid_params", "forbidden"]))
}
