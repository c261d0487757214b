import JSONRPC

extension AuthMethods {
    static let providersDescriptor = MethodDescriptor(
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
    )

    static let signupDescriptor = MethodDescriptor(
        "auth.signup",
        summary: "Creates an account with a password and logs this connection in as it.",
        params: [
            Property("email", .string("A valid address, at most 254 characters.", format: "email"), required: true),
            Property("password", .string("8 to 128 characters (Unicode code points, NFKC)."), required: true),
            Property("username", .string("^[A-Za-z0-9_]{1,15}$; derived from the e-mail when absent.")),
        ],
        result: AuthSchemas.login, access: .open, errors: ["invalid_params", "conflict", "forbidden", "unavailable"]
    )

    static let loginDescriptor = MethodDescriptor(
        "auth.login",
        summary: "Logs this connection in through a provider; returns a session token to resume it later.",
        params: [
            // A plain string: the enabled providers can change on reload; the handler names the valid ones.
            Property("provider", .string("An enabled provider's name; see auth.providers."), required: true),
            Property("credentials", .freeObject("The provider's credentials; see auth.providers."), required: true),
        ],
        result: AuthSchemas.login, access: .open,
        errors: ["invalid_params", "invalid_credentials", "rate_limited", "unavailable"]
    )

    static let logoutDescriptor = MethodDescriptor(
        "auth.logout", summary: "Revokes this connection's session and logs the connection out.",
        result: .object([Property("loggedOut", .boolean(), required: true)])
    )

    static let whoamiDescriptor = MethodDescriptor(
        "auth.whoami", summary: "The account this connection is logged in as.",
        result: .object([
            Property("user", AuthSchemas.user, required: true),
            Property("provider", .string("The provider that logged the connection in."), required: true),
            Property("expiresAt", Schema.timestamp().orNull(), required: true),
        ])
    )

    static let changePasswordDescriptor = MethodDescriptor(
        "auth.changePassword", summary: "Changes the password and revokes every other session of the account.",
        params: [
            Property("currentPassword", .string(), required: true),
            Property("newPassword", .string("8 to 128 characters."), required: true),
        ],
        result: .object([Property("passwordChanged", .boolean(), required: true)]),
        errors: ["invalid_params", "invalid_credentials"]
    )
}
