import JSONRPC
import TwitterAPI
import TwitterCore

/// The OAuth scope rule, after the access rule: a login resting on an OAuth access token may call a logged-in
/// method only when its scopes cover the one the method declares (`API.requiredScopes`); a method declared for
/// full logins only, or declaring none, is refused to it (-32003, as Mastodon's 403). Every other login has every
/// scope and passes at the cost of one atomic load (`ConnectionSession.loginScopes`), so the JSON-RPC hot paths
/// pay next to nothing.
struct ScopeMiddleware: RequestMiddleware {
    /// The refusal, worded as Mastodon words it.
    static let outsideScopes = TwitterError(.forbidden, "This action is outside the authorized scopes")

    /// An open method needs no scope.
    func prepares(_ descriptor: MethodDescriptor) -> Bool { descriptor.access != .open }
    var checksAnswers: Bool { false }

    func prepare(_ descriptor: MethodDescriptor, _ context: RequestContext) throws -> Preparation? {
        guard descriptor.access != .open, let scopes = context.session.loginScopes else { return nil }
        guard let required = API.requiredScopes[descriptor.name], scopes.covers(required) else {
            throw Self.outsideScopes.rpcError
        }
        return nil
    }
}
