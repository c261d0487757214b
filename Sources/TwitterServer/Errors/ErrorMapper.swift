import Foundation
import JSONRPC
import Logging
import TwitterCore

/// Turns whatever a handler threw into the error the client sees.
///
/// Domain errors pass through the code table. Anything else is a bug or an outage: it is logged in full with
/// a fresh id, and the client gets only that id, never a stack, SQL or a path.
struct ErrorMapper: Sendable {
    let logger: Logger

    func map(_ error: any Error, request: RPCRequest, context: RequestContext) -> RPCError {
        if let domain = error as? TwitterError {
            if domain.kind == .internal { return internalError(error, request: request, context: context) }
            return domain.rpcError
        }
        return internalError(error, request: request, context: context)
    }

    private func internalError(_ error: any Error, request: RPCRequest, context: RequestContext) -> RPCError {
        let errorID = UUID().uuidString.lowercased()
        logger.error(
            "internal error",
            metadata: [
                "errorId": "\(errorID)", "method": "\(request.method)", "connection": "\(context.session.id)",
                "error": "\(String(reflecting: error))",
            ]
        )
        return .internalError(errorID: errorID)
    }
}
