/// Everything the router and `rpc.discover` know about one method: its name, params, result and access rule.
public struct MethodDescriptor: Sendable {
    /// Who may call a method.
    public enum Access: Sendable, Equatable {
        /// Any connection, logged in or not.
        case open
        /// Only a connection that has logged in.
        case authenticated
        /// Only a connection logged in with the role the application calls privileged (twitterd's admins).
        case admin

        /// How `rpc.discover` says it: `none`, `required` or `admin`.
        public var name: String {
            switch self {
            case .open: "none"
            case .authenticated: "required"
            case .admin: "admin"
            }
        }
    }

    /// The method name, `namespace.verb`.
    public var name: String
    /// One line on what the method does.
    public var summary: String
    /// The params, by name; their order is the order for params given by position.
    public var params: [Property]
    /// The result's schema.
    public var result: Schema
    /// Who may call it.
    public var access: Access
    /// Whether params may also be given as an array, in the order of `params`.
    public var acceptsPositionalParams: Bool
    /// The error kinds the method may answer with, for the documentation.
    public var errors: [String]

    /// Creates a descriptor.
    public init(
        _ name: String, summary: String, params: [Property] = [], result: Schema, access: Access = .authenticated,
        positional: Bool = false, errors: [String] = []
    ) {
        self.name = name
        self.summary = summary
        self.params = params
        self.result = result
        self.access = access
        self.acceptsPositionalParams = positional
        self.errors = errors
    }
}
