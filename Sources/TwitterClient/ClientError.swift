import JSONRPC

/// Why a call through the client failed.
public enum ClientError: Error, Sendable, CustomStringConvertible {
    /// The socket could not be reached; `errno` says why (ENOENT, EACCES, ECONNREFUSED…).
    case cannotConnect(path: String, errno: Int32?, reason: String)
    /// The daemon answered with a JSON-RPC error.
    case remote(RPCError)
    /// The connection closed before the answer arrived.
    case connectionClosed
    /// The daemon sent something that is not a JSON-RPC response.
    case invalidResponse(String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .cannotConnect(let path, _, let reason): "cannot connect to twitterd at \(path): \(reason)"
        case .remote(let error): error.message
        case .connectionClosed: "the daemon closed the connection before answering"
        case .invalidResponse(let detail): "unexpected answer from the daemon: \(detail)"
        }
    }
}
