import JSONRPC
import TwitterCore

/// The one table from domain error kinds to JSON-RPC codes, shared by the daemon, which answers with it, and
/// its clients, which branch on it; docs/PROTOCOL.md lists the same table.
public enum ErrorCodes {
    /// The JSON-RPC code for `kind`.
    public static func code(for kind: TwitterError.Kind) -> Int {
        switch kind {
        case .invalidParams: RPCError.StandardCode.invalidParams
        case .unauthenticated: -32001
        case .invalidCredentials: -32002
        case .forbidden: -32003
        case .notFound: -32004
        case .conflict: -32005
        case .rateLimited: -32006
        case .unavailable: -32008
        case .internal: RPCError.StandardCode.internalError
        }
    }

    /// The kind a code stands for; nil for the codes of JSON-RPC itself that are not domain kinds (parse
    /// error, invalid request, method not found) and for unknown codes.
    public static func kind(of code: Int) -> TwitterError.Kind? {
        TwitterError.Kind.allCases.first { Self.code(for: $0) == code }
    }
}
