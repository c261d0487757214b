import JSONRPC
import TwitterCore

extension API.Admin {
    // @MemberwiseInit
    /// `admin.roles.grant`'s and `admin.roles.revoke`'s answer.
    public struct RoleChanged: Codable, Sendable, Equatable {
        /// The account, as it is named now.
        public var username: String
        /// Its stored role after the call.
        public var role: AccountRole
        /// False when it had that role already.
        public var changed: Bool
    }

    static let roleChangedSchema = Schema.object(
        [
            Property("username", .string(), required: true),
            Property("role", .oneOfStrings(AccountRole.allCases.map(\.rawValue)), required: true),
            Property("changed", .boolean("False when the account had that role already."), required: true),
        ], title: "RoleChanged")

    /// `admin.roles.grant`.
    public static let grantRole = RPCMethod<API.Users.UsernameParams, RoleChanged>(
        MethodDescriptor(
            "admin.roles.grant",
            summary:
                "Makes an account an admin: the role is stored with the account (its id), audited, and follows it through renames.",
            params: [usernameParam], result: roleChangedSchema, access: .admin, errors: ["forbidden", "not_found"]))

    /// `admin.roles.revoke`.
    public static let revokeRole = RPCMethod<API.Users.UsernameParams, RoleChanged>(
        MethodDescriptor(
            "admin.roles.revoke",
            summary: "Takes the stored admin role from an account; its live connections end, so none keeps the role.",
            params: [usernameParam], result: roleChangedSchema, access: .admin,
            errors: ["invalid_params", "forbidden", "not_found"]))
}
