import JSONRPC

extension ProfileMethods {
    static let profile = Schema.object(
        [
            Property("username", .string(), required: true),
            Property("email", .string(format: "email"), required: true),
            Property("firstName", .string(), required: true),
            Property("lastName", .string(), required: true),
            Property("age", Schema.integer().orNull(), required: true),
            Property("bio", .string(), required: true),
            Property("version", .integer("Grows with every write; pass it back as expectedVersion."), required: true),
            Property("updatedAt", .timestamp(), required: true),
        ], "The caller's own profile.", title: "Profile"
    )

    static let publicProfile = Schema.object(
        [
            Property("username", .string(), required: true),
            Property("firstName", .string(), required: true),
            Property("lastName", .string(), required: true),
            Property("bio", .string(), required: true),
        ], "Another user's profile: no e-mail, no age.", title: "PublicProfile"
    )

    static let get = MethodDescriptor(
        "profile.get", summary: "Your profile, or another user's public profile by username.",
        params: [Property("username", .string("Whose profile; yours when absent."))],
        result: Schema(.oneOf([profile, publicProfile])), positional: true, errors: ["not_found"]
    )

    static let update = MethodDescriptor(
        "profile.update",
        summary: "Changes the given fields; writes only those that differ and reports them in changed.",
        params: [
            Property("firstName", .string("At least 2 characters.")),
            Property("lastName", .string("At least 2 characters.")),
            Property("email", .string("A valid address; needs currentPassword.", format: "email")),
            Property("age", .integer("13 through 124.")),
            Property("username", .string("^[A-Za-z0-9_]{1,15}$")),
            Property("bio", .string("At most 160 characters.")),
            Property("expectedVersion", .integer("Refuse the update unless the profile is at this version.")),
            Property("currentPassword", .string("Required to change the email of an account with a password.")),
        ],
        result: .object(
            [
                Property("profile", profile, required: true),
                Property(
                    "changed", .array(of: .string(), "The fields written; empty when nothing differed."), required: true
                ),
            ], title: "ProfileUpdate"),
        errors: ["invalid_params", "conflict", "invalid_credentials"]
    )
}
