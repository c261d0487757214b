import PostgresNIO
import TwitterCore

/// The one home of what "the database does not answer" means to the stores: errors that say the server is
/// down, restarting or unreachable become -32008 with `retryAfter`, so a client waits and tries again while the
/// daemon keeps serving everything that needs no database; every other error passes as it is.
enum Unreachable {
    /// Seconds a client is told to wait: the pool retries its connections meanwhile.
    static let retryAfter = 1

    /// The error to report for `error`.
    static func translate(_ error: any Error) -> any Error {
        guard isUnreachable(error) else { return error }
        return TwitterError.unavailable(retryAfter: retryAfter, "The database does not answer")
    }

    /// Whether `error` says the server cannot be reached or went away, rather than that a query was wrong.
    static func isUnreachable(_ error: any Error) -> Bool {
        if let error = error as? TwitterError { return error.kind == .unavailable }
        if let error = error as? PostgresTransactionError {
            return [error.beginError, error.closureError, error.commitError].contains { $0.map(isUnreachable) ?? false }
        }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
            return true
        case .server:
            // Class 08: connection exceptions; 57P01-57P03: shut down by an administrator, crashed, starting up.
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
        default:
            return false
        }
    }
}
