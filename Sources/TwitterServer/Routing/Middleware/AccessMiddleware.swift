import JSONRPC
import Logging
import TwitterCore

/// The access rule, checked once for every call before its params: an open method lets anyone in, a logged-in
/// one needs a login that has not expired or been revoked (-32001), an admin one an admin's (-32003, logged).
/// The route groups' contexts rest on it (`RouteGroups`).
struct AccessMiddleware: RequestMiddleware {
    let logger: Logger

    /// An open method lets everyone in.
    func prepares(_ descriptor: MethodDescriptor) -> Bool { descriptor.access != .open }
    var checksAnswers: Bool { false }

    func prepare(_ descriptor: MethodDescriptor, _ context: RequestContext) throws -> Preparation? {
        do throws(TwitterError) {
            switch descriptor.access {
            case .open: break
            case .authenticated: _ = try context.session.requireLogin()
            case .admin: _ = try context.session.requireAdmin(for: descriptor.name, logger: logger)
            }
        } catch {
            throw error.rpcError
        }
        return nil
    }
}
