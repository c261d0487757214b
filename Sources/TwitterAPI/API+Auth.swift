import Foundation
import JSONRPC
import TwitterCore

extension API.Auth {
    // @MemberwiseInit
    /// `auth.signup`'s params.
    public struct SignupParams: Codable, Sendable {
        /// A valid address, at most 254 characters.
        public var email: String
        /// 8 to 128 characters.
        public var password: String
        /// The public handle; derived from the e-mail when nil.
        public var username: String?
    }

    // @MemberwiseInit
    /// `auth.login`'s params.
    public struct LoginParams: Codable, Sendable {
        /// An enabled provider's name.
        public var provider: String
        /// The provider's own credentials object, decoded by the provider once it is known.
        public var credentials: JSONValue
    }

    // @MemberwiseInit
    /// `auth.changePassword`'s params.
    public struct ChangePasswordParams: Codable, Sendable {
        /// The password now.
        public var currentPassword: String
        /// 8 to 128 characters.
        public var newPassword: String
    }

    // @MemberwiseInit
    /// A login provider and the credentials it takes.
    public struct Provider: Codable, Sendable {
        /// The provider's name, for auth.login.
        public var name: String
        /// The provider's credentials.
        public var credentials: [CredentialField]
    }

    // @MemberwiseInit
    /// The session part of a login answer; `expiresAt` is always present, null for a token that never expires.
    public struct Session: Codable, Sendable {
        /// The secret, shown only once.
        public var token: String
        /// When it expires; nil for never.
        @NullWhenAbsent public var expiresAt: Date? = nil

        /// Creates the value from its members.
        public init(_ session: IssuedSession) {
            self.init(token: session.token, expiresAt: session.expiresAt)
        }
    }

    // @MemberwiseInit
    /// `{user, session}`: the answer to signup and login.
    public struct LoginResult: Codable, Sendable {
        /// The account.
        public var user: User
        /// The session, to resume with provider "token".
        public var session: Session
    }

    // @MemberwiseInit
    /// `auth.logout`'s answer.
    public struct LoggedOut: Codable, Sendable {
        /// Always true.
        public var loggedOut: Bool
    }

    // @MemberwiseInit
    /// `auth.changePassword`'s answer.
    public struct PasswordChanged: Codable, Sendable {
        /// Always true.
        public var passwordChanged: Bool
    }

    // @MemberwiseInit
    /// `auth.whoami`'s answer; `expiresAt` is always present, null for a login that does not expire.
    public struct WhoAmI: Codable, Sendable {
        /// The account.
        public var user: User
        /// The provider that logged the connection in.
        public var provider: String
        /// When it expires; nil for never.
        @NullWhenAbsent public var expiresAt: Date? = nil
        /// `user` or `admin`, decided at login.
        public var role: AccountRole
    }

    // @MemberwiseInit
    /// `auth.linkPeer`'s answer.
    public struct PeerLinked: Codable, Sendable {
        /// The uid that now logs in as this account.
        public var uid: UInt32
        /// The account it logs in as.
        public var username: String
    }

    // @MemberwiseInit
    /// `auth.unlinkPeer`'s answer.
    public struct PeerUnlinked: Codable, Sendable {
        /// The uid whose link was asked to go.
        public var uid: UInt32
        /// False when no link existed.
        public var unlinked: Bool
    }

    static let userSchema = Schema.object(
        [
            Property("id", .integer("The account id."), required: true),
            Property("username", .string("The public handle."), required: true),
            Property("email", .string("The e-mail address.", format: "email"), required: true),
            Property("createdAt", .timestamp("When the account was made."), required: true),
        ], "The logged-in account.", title: "User"
    )

    static let sessionSchema = Schema.object(
        [
            Property(
                "token", .string("The session token (tws_…), shown once; resume with provider \"token\"."),
                required: true),
            Property("expiresAt", Schema.timestamp("When it expires unless used.").orNull(), required: true),
        ], title: "Session"
    )

    static let loginSchema = Schema.object(
        [Property("user", userSchema, required: true), Property("session", sessionSchema, required: true)],
        title: "LoginResult"
    )

    /// `auth.providers`.
    public static let providers = RPCMethod<NoParams, [Provider]>(
        MethodDescriptor(
            "auth.providers", summary: "The enabled login providers and the credentials each takes.",
            result: .array(
                of: .object(
                    [
                        Property("name", .string("The provider's name, for auth.login."), required: true),
                        Property(
                            "credentials",
                            .array(
                                of: .object([
                                    Property("name", .string(), required: true),
                                    Property("type", .string(), required: true),
                                    Property("summary", .string(), required: true),
                                    Property("isRequired", .boolean(), required: true),
                                ])), required: true),
                    ], title: "Provider")),
            access: .open
        ))

    /// `auth.signup`.
    public static let signup = RPCMethod<SignupParams, LoginResult>(
        MethodDescriptor(
            "auth.signup",
            summary: "Creates an account with a password and logs this connection in as it.",
            params: [
                Property(
                    "email", .string("A valid address, at most 254 characters.", format: "email"), required: true),
                Property("password", .string("8 to 128 characters (Unicode code points, NFKC)."), required: true),
                Property("username", .string("^[A-Za-z0-9_]{1,15}$; derived from the e-mail when absent.")),
            ],
            result: loginSchema, access: .open,
            errors: ["invalid_params", "conflict", "forbidden", "rate_limited", "unavailable"]
        ))

    /// `auth.login`.
    public static let login = RPCMethod<LoginParams, LoginResult>(
        MethodDescriptor(
            "auth.login",
            summary: "Logs this connection in through a provider; returns a session token to resume it later.",
            params: [
                // A plain string: the enabled providers can change on reload; the handler names the valid ones.
                Property("provider", .string("An enabled provider's name; see auth.providers."), required: true),
                Property("credentials", .freeObject("The provider's credentials; see auth.providers."), required: true),
            ],
            result: loginSchema, access: .open,
            errors: ["invalid_params", "invalid_credentials", "rate_limited", "unavailable"]
        ))

    /// `auth.logout`.
    public static let logout = RPCMethod<NoParams, LoggedOut>(
        MethodDescriptor(
            "auth.logout", summary: "Revokes this connection's session and logs the connection out.",
            result: .object([Property("loggedOut", .boolean(), required: true)])
        ))

    /// `auth.whoami`.
    public static let whoami = RPCMethod<NoParams, WhoAmI>(
        MethodDescriptor(
            "auth.whoami", summary: "The account this connection is logged in as.",
            result: .object([
                Property("user", userSchema, required: true),
                Property("provider", .string("The provider that logged the connection in."), required: true),
                Property("expiresAt", Schema.timestamp().orNull(), required: true),
                Property(
                    "role",
                    .oneOfStrings(AccountRole.allCases.map(\.rawValue), "Decided at login; admins reach admin.*."),
                    required: true),
            ])
        ))

    /// `auth.changePassword`.
    public static let changePassword = RPCMethod<ChangePasswordParams, PasswordChanged>(
        MethodDescriptor(
            "auth.changePassword", summary: "Changes the password and revokes every other session of the account.",
            params: [
                Property("currentPassword", .string(), required: true),
                Property("newPassword", .string("8 to 128 characters."), required: true),
            ],
            result: .object([Property("passwordChanged", .boolean(), required: true)]),
            errors: ["invalid_params", "invalid_credentials"], rate: .credentials
        ))
}

extension API.Auth {
    // @MemberwiseInit
    /// `auth.revoked`: this connection's login ended elsewhere; its subscriptions have ended with it.
    public struct Revoked: Codable, Sendable, Equatable {
        /// `loggedOut`, `tokenRevoked`, `passwordChanged` or `peerUnlinked`.
        public var reason: String
        /// A sentence for people.
        public var message: String
    }

    /// `auth.revoked`.
    public static let revoked = RPCNotification<Revoked>("auth.revoked")
}
