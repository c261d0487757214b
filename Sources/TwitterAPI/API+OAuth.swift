import Foundation
import JSONRPC
import TwitterCore

extension API {
    /// `oauth.*`: OAuth apps and their tokens, as Mastodon clients use them (docs/PROTOCOL.md, docs/SECURITY.md).
    public enum OAuth {}
}

extension API.OAuth {
    // @MemberwiseInit
    /// `oauth.apps.register`'s params.
    public struct RegisterParams: Codable, Sendable {
        /// The app's name, 1 to 200 characters.
        public var name: String
        /// Its redirect URIs; `urn:ietf:wg:oauth:2.0:oob` for a client that shows the code instead.
        public var redirectUris: [String]
        /// The most its tokens may be granted, space-separated Mastodon scopes; `read` when nil.
        public var scopes: String?
        /// Its website.
        public var website: String?
    }

    // @MemberwiseInit
    /// An app as its owner sees it; the secret only in `oauth.apps.register`'s answer.
    public struct App: Codable, Sendable {
        /// The app's id.
        public var id: Int64
        /// Its name.
        public var name: String
        /// The public client id.
        public var clientId: String
        /// The secret, shown once, by `oauth.apps.register`; nil everywhere else.
        @NullWhenAbsent public var clientSecret: String? = nil
        /// Its redirect URIs.
        public var redirectUris: [String]
        /// Its scopes, space-separated.
        public var scopes: String
        /// Its website, if given.
        @NullWhenAbsent public var website: String? = nil
    }

    // @MemberwiseInit
    /// `oauth.token`'s params: RFC 6749's token request, with its own names.
    public struct TokenParams: Codable, Sendable {
        /// `password`, `authorization_code` or `client_credentials`.
        public var grantType: String
        /// The app's client id.
        public var clientId: String
        /// The app's secret.
        public var clientSecret: String
        /// The scopes asked for (not for `authorization_code`, whose code carries them); `read` when nil.
        public var scope: String?
        /// `password`: the account's e-mail.
        public var username: String?
        /// `password`: the account's password.
        public var password: String?
        /// `authorization_code`: the code from `oauth.authorize`.
        public var code: String?
        /// `authorization_code`: the redirect URI the code was made for.
        public var redirectUri: String?
    }

    // @MemberwiseInit
    /// A granted access token: shown only in this answer.
    public struct Token: Codable, Sendable {
        /// The bearer token.
        public var accessToken: String
        /// Always `Bearer`.
        public var tokenType: String
        /// The granted scopes, space-separated: every one asked for.
        public var scope: String
        /// When it was made.
        public var createdAt: Date
    }

    // @MemberwiseInit
    /// `oauth.revoke`'s params.
    public struct RevokeParams: Codable, Sendable {
        /// The app's client id.
        public var clientId: String
        /// The app's secret.
        public var clientSecret: String
        /// The token to revoke.
        public var token: String
    }

    // @MemberwiseInit
    /// `oauth.revoke`'s answer.
    public struct Revoked: Codable, Sendable {
        /// Whether a live token of the app was revoked (RFC 7009 answers success either way).
        public var revoked: Bool
    }

    // @MemberwiseInit
    /// `oauth.authorize`'s params.
    public struct AuthorizeParams: Codable, Sendable {
        /// The app's client id.
        public var clientId: String
        /// The scopes to grant, space-separated; `read` when nil.
        public var scope: String?
        /// One of the app's redirect URIs; its first when nil.
        public var redirectUri: String?
    }

    // @MemberwiseInit
    /// An authorization code: shown only in this answer.
    public struct Authorization: Codable, Sendable {
        /// The code, for `oauth.token` with `authorization_code`; redeemable once.
        public var code: String
        /// The app's name, for people.
        public var app: String
        /// The scopes it grants, space-separated.
        public var scope: String
        /// The redirect URI the token request must repeat.
        public var redirectUri: String
        /// When it stops being redeemable.
        public var expiresAt: Date
    }

    // @MemberwiseInit
    /// `oauth.apps.verify`'s params.
    public struct VerifyParams: Codable, Sendable {
        /// An app token or an account's access token.
        public var token: String
    }

    static let appSchema = Schema.object(
        [
            Property("id", .integer(), required: true), Property("name", .string(), required: true),
            Property("clientId", .string(), required: true),
            Property("clientSecret", Schema.string("Shown once, on registration.").orNull(), required: true),
            Property("redirectUris", .array(of: .string()), required: true),
            Property("scopes", .string(), required: true),
            Property("website", Schema.string().orNull(), required: true),
        ], title: "OAuthApp")

    /// `oauth.apps.register`.
    public static let register = RPCMethod<RegisterParams, App>(
        MethodDescriptor(
            "oauth.apps.register",
            summary: "Registers an OAuth app (Mastodon's POST /api/v1/apps); its secret is shown only in this answer.",
            params: [
                Property("name", .string("The app's name, 1 to 200 characters."), required: true),
                Property(
                    "redirectUris", .array(of: .string(), "Redirect URIs; urn:ietf:wg:oauth:2.0:oob for none."),
                    required: true),
                Property("scopes", .string("Space-separated Mastodon scopes; read when absent.")),
                Property("website", .string("The app's website.")),
            ],
            result: appSchema, access: .open, errors: ["invalid_params"]))

    /// `oauth.token`.
    public static let token = RPCMethod<TokenParams, Token>(
        MethodDescriptor(
            "oauth.token",
            summary:
                "Grants an access token (Mastodon's POST /oauth/token) for a password (throttled as logins are), an authorization code, or the app itself.",
            params: [
                Property(
                    "grantType",
                    .string(
                        "password, authorization_code or client_credentials; another is -32602 with data.oauthError unsupported_grant_type."
                    ), required: true),
                Property("clientId", .string(), required: true), Property("clientSecret", .string(), required: true),
                Property("scope", .string("Space-separated scopes within the app's; read when absent.")),
                Property("username", .string("password: the account's e-mail.")),
                Property("password", .string("password: the account's password.")),
                Property("code", .string("authorization_code: the code from oauth.authorize.")),
                Property("redirectUri", .string("authorization_code: the redirect URI the code was made for.")),
            ],
            result: .object(
                [
                    Property("accessToken", .string("Shown once."), required: true),
                    Property("tokenType", .string(), required: true), Property("scope", .string(), required: true),
                    Property("createdAt", .timestamp(), required: true),
                ], title: "OAuthToken"),
            access: .open, errors: ["invalid_params", "invalid_credentials", "rate_limited", "forbidden"]))

    /// `oauth.revoke`.
    public static let revoke = RPCMethod<RevokeParams, Revoked>(
        MethodDescriptor(
            "oauth.revoke",
            summary:
                "Revokes an access token of the app (Mastodon's POST /oauth/revoke); the logins resting on it end.",
            params: [
                Property("clientId", .string(), required: true), Property("clientSecret", .string(), required: true),
                Property("token", .string(), required: true),
            ],
            result: .object([Property("revoked", .boolean(), required: true)]), access: .open,
            errors: ["invalid_params", "invalid_credentials"]))

    /// `oauth.authorize`.
    public static let authorize = RPCMethod<AuthorizeParams, Authorization>(
        MethodDescriptor(
            "oauth.authorize",
            summary:
                "Authorizes an app for the logged-in account: a code it redeems once, within ten minutes, with oauth.token. Not from a token's login.",
            params: [
                Property("clientId", .string(), required: true),
                Property("scope", .string("Space-separated scopes within the app's; read when absent.")),
                Property("redirectUri", .string("One of the app's redirect URIs; its first when absent.")),
            ],
            result: .object(
                [
                    Property("code", .string("Shown once."), required: true),
                    Property("app", .string(), required: true), Property("scope", .string(), required: true),
                    Property("redirectUri", .string(), required: true),
                    Property("expiresAt", .timestamp(), required: true),
                ], title: "OAuthAuthorization"),
            errors: ["invalid_params", "invalid_credentials", "forbidden"], rate: .credentials))

    /// `oauth.apps.current`.
    public static let current = RPCMethod<NoParams, App>(
        MethodDescriptor(
            "oauth.apps.current",
            summary:
                "The OAuth app whose access token the connection logged in with (Mastodon's apps/verify_credentials).",
            result: appSchema, errors: ["not_found"]))

    /// `oauth.apps.verify`.
    public static let verify = RPCMethod<VerifyParams, App>(
        MethodDescriptor(
            "oauth.apps.verify",
            summary: "The OAuth app of a live app token or access token (Mastodon's apps/verify_credentials).",
            params: [Property("token", .string(), required: true)], result: appSchema, access: .open,
            errors: ["invalid_credentials"]))
}

extension API.OAuth.App {
    /// The app as its owner sees it, with its secret when just registered.
    public init(_ app: OAuthApp, secret: String? = nil) {
        self.init(
            id: app.id, name: app.name, clientId: app.clientID, clientSecret: secret, redirectUris: app.redirectURIs,
            scopes: app.scopes.text, website: app.website)
    }
}
