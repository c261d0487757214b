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

    /// The fields, in one shared box: a descriptor is handed to authorisation and to the params check on every
    /// request, and copying seven fields (a retain and a release of each string and array) cost about 760
    /// instructions of a ping's 8,400 (callgrind, bench/instructions.sh); copying the box costs one.
    private final class Fields: Sendable {
        let name: String
        let summary: String
        let params: [Property]
        let result: Schema
        let access: Access
        let acceptsPositionalParams: Bool
        let errors: [String]
        let rate: String?
        let sharesCommits: Bool

        init(
            name: String, summary: String, params: [Property], result: Schema, access: Access,
            acceptsPositionalParams: Bool, errors: [String], rate: String?, sharesCommits: Bool
        ) {
            self.name = name
            self.summary = summary
            self.params = params
            self.result = result
            self.access = access
            self.acceptsPositionalParams = acceptsPositionalParams
            self.errors = errors
            self.rate = rate
            self.sharesCommits = sharesCommits
        }
    }

    private let fields: Fields

    /// The method name, `namespace.verb`.
    public var name: String { fields.name }
    /// One line on what the method does.
    public var summary: String { fields.summary }
    /// The params, by name; their order is the order for params given by position.
    public var params: [Property] { fields.params }
    /// The result's schema.
    public var result: Schema { fields.result }
    /// Who may call it.
    public var access: Access { fields.access }
    /// Whether params may also be given as an array, in the order of `params`.
    public var acceptsPositionalParams: Bool { fields.acceptsPositionalParams }
    /// The error kinds the method may answer with, for the documentation.
    public var errors: [String] { fields.errors }
    /// The rate a call spends one of, by the name the application gives it (twitterd's `[rates]` keys); nil for
    /// a method that spends none. The application takes it in a middleware of its dispatch (twitterd's
    /// `WriteRateMiddleware`), so a method's rate is declared with the method and enforced in one place.
    public var rate: String? { fields.rate }
    /// Whether a call takes its place in the store's commit order before its handler first suspends, so that a
    /// connection's pipelined calls of the method may run together and share a commit, still taking effect in
    /// arrival order (twitterd's posts and reposts). Declared with the method, as its rate is, never learnt at
    /// run time: the connection starts the next such call at once only because this says the one before has
    /// queued its write by then (`LineAnswerer` in the transport); a handler of such a method awaits nothing before
    /// it queues. Not published by `rpc.discover`: it is how the daemon runs calls, not part of the protocol.
    public var sharesCommits: Bool { fields.sharesCommits }

    /// Creates a descriptor.
    public init(
        _ name: String, summary: String, params: [Property] = [], result: Schema, access: Access = .authenticated,
        positional: Bool = false, errors: [String] = [], rate: String? = nil, sharesCommits: Bool = false
    ) {
        fields = Fields(
            name: name, summary: summary, params: params, result: result, access: access,
            acceptsPositionalParams: positional, errors: errors, rate: rate, sharesCommits: sharesCommits)
    }
}
