import JSONRPC
import TwitterCore

/// The daemon's three route groups, by access: every method registers in the one its declaration names
/// (`Router.register(_:in:_:)` checks it at start-up).
///
/// The access rule is checked once, before the params, by `AccessMiddleware`; entering a group only reads the
/// login it let in, so a handler is handed its caller and never asks for it.
extension RouteGroup where Context == RequestContext {
    /// Methods anyone may call, logged in or not: their handlers get the connection as it is.
    public static var open: RouteGroup<RequestContext, RequestContext> { .plain(.open) }

    /// Methods of a logged-in connection.
    public static var loggedIn: RouteGroup<RequestContext, LoggedInContext> {
        RouteGroup<RequestContext, LoggedInContext>(access: .authenticated) { context in
            LoggedInContext(session: context.session, login: try Self.login(of: context))
        }
    }

    /// Methods of a connection logged in as an admin.
    public static var admin: RouteGroup<RequestContext, AdminContext> {
        RouteGroup<RequestContext, AdminContext>(access: .admin) { context in
            AdminContext(session: context.session, login: try Self.login(of: context))
        }
    }

    /// The login the access rule let in a moment ago; a revocation from another connection since then ends the
    /// call as the access rule would have.
    private static func login(of context: RequestContext) throws(TwitterError) -> SessionLogin {
        guard let login = context.session.login else { throw TwitterError.unauthenticated }
        return login
    }
}
