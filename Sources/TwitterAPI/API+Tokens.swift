import Foundation
import JSONRPC
import TwitterCore

extension API.Tokens {
    // @MemberwiseInit
    /// `tokens.create`'s params.
    public struct CreateParams: Codable, Sendable {
        /// A name to recognise the token by, 1 to 64 characters.
        public var name: String
        /// Days until it expires; never when nil.
        public var expiresInDays: Int?
        /// The account's password: a token outlives the session that asked for it, so minting one takes what a
        /// login takes.
        public var password: String?
    }

    // @MemberwiseInit
    /// `tokens.revoke`'s params.
    public struct RevokeParams: Codable, Sendable {
        /// The token's id, from tokens.list.
        public var id: Int64
    }

    // @MemberwiseInit
    /// A new token, with its secret: shown only in this answer.
    public struct CreatedToken: Codable, Sendable {
        /// The token's id.
        public var id: Int64
        /// The secret, shown only once.
        public var token: String
        /// The name given at creation.
        public var name: String
        /// When it expires; nil for never.
        @NullWhenAbsent public var expiresAt: Date? = nil
    }

    // @MemberwiseInit
    /// A live token, without its secret.
    public struct TokenSummary: Codable, Sendable {
        /// The token's id.
        public var id: Int64
        /// The name given at creation.
        public var name: String
        /// When it was made.
        public var createdAt: Date
        /// When it expires; nil for never.
        @NullWhenAbsent public var expiresAt: Date? = nil
        /// When it was last used; nil if never.
        @NullWhenAbsent public var lastUsedAt: Date? = nil
        /// The OAuth app an OAuth access token was granted to (its name is the token's); nil for a personal token.
        @NullWhenAbsent public var appId: Int64? = nil
        /// An OAuth access token's scopes, space-separated; nil for a personal token, which may do everything.
        @NullWhenAbsent public var scopes: String? = nil
    }

    // @MemberwiseInit
    /// `tokens.revoke`'s answer.
    public struct Revoked: Codable, Sendable {
        /// Always true.
        public var revoked: Bool
    }

    /// `tokens.create`.
    public static let create = RPCMethod<CreateParams, CreatedToken>(
        MethodDescriptor(
            "tokens.create",
            summary:
                "Creates a personal access token (twp_…) with the account's password; the secret is shown only in this answer.",
            params: [
                Property("name", .string("A name to recognise it by, 1 to 64 characters."), required: true),
                Property(
                    "expiresInDays", .integer("Days until it expires; never when absent.", minimum: 1, maximum: 3650)),
                Property(
                    "password",
                    .string(
                        "The account's password; required. Throttled as logins are. A personal token's login can never mint one."
                    )),
            ],
            result: .object(
                [
                    Property("id", .integer(), required: true),
                    Property("token", .string("The secret, shown once."), required: true),
                    Property("name", .string(), required: true),
                    Property("expiresAt", Schema.timestamp().orNull(), required: true),
                ], title: "CreatedToken"),
            errors: ["invalid_params", "invalid_credentials", "rate_limited", "forbidden"], rate: .credentials
        ))

    /// `tokens.list`.
    public static let list = RPCMethod<NoParams, [TokenSummary]>(
        MethodDescriptor(
            "tokens.list",
            summary:
                "The account's live personal access tokens and OAuth access tokens (with their app and scopes), without their secrets.",
            result: .array(
                of: .object(
                    [
                        Property("id", .integer(), required: true),
                        Property("name", .string(), required: true),
                        Property("createdAt", .timestamp(), required: true),
                        Property("expiresAt", Schema.timestamp().orNull(), required: true),
                        Property("lastUsedAt", Schema.timestamp().orNull(), required: true),
                        Property("appId", Schema.integer("An OAuth access token's app.").orNull(), required: true),
                        Property("scopes", Schema.string("An OAuth access token's scopes.").orNull(), required: true),
                    ], title: "TokenSummary"))
        ))

    /// `tokens.revoke`.
    public static let revoke = RPCMethod<RevokeParams, Revoked>(
        MethodDescriptor(
            "tokens.revoke", summary: "Revokes a personal access token or session of the account.",
            params: [Property("id", .integer("The token's id."), required: true)],
            result: .object([Property("revoked", .boolean(), required: true)]), positional: true,
            errors: ["not_found"], rate: .credentials
        ))
}
