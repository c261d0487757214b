import ArgumentParser
import JSONRPC
import TwitterAPI

/// sysexits(3) codes, the ones twctl uses.
enum ExitStatus {
    static let usage = ExitCode(64)
    static let data = ExitCode(65)
    static let unavailable = ExitCode(69)
    static let software = ExitCode(70)
    static let noPermission = ExitCode(77)

    /// The exit status for a JSON-RPC error code the daemon answered with.
    static func forErrorCode(_ code: Int) -> ExitCode {
        switch ErrorCodes.kind(of: code) {
        case .invalidParams, .notFound, .conflict: return data
        case .unauthenticated, .invalidCredentials, .forbidden: return noPermission
        case .rateLimited, .unavailable: return unavailable
        case .internal: return software
        case nil: break
        }
        switch code {
        case RPCError.StandardCode.invalidRequest, RPCError.StandardCode.parseError: return data
        case RPCError.StandardCode.methodNotFound: return usage
        default: return software
        }
    }
}
