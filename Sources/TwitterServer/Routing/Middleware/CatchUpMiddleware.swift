import JSONRPC

/// With other daemons on the database, a daemon that is not current reads their commit log to its end before a
/// logged-in request, so that a revocation answered anywhere is applied here before this request is served
/// (`LiveLogins.catchUpBeforeServing`); a current one, holding its read lease, has applied it already, and goes
/// on at once. First in the list: what it learns (a revocation) decides the access rule's answer.
struct CatchUpMiddleware: RequestMiddleware {
    let logins: LiveLogins

    func prepares(_ descriptor: MethodDescriptor) -> Bool { descriptor.access != .open }
    var checksAnswers: Bool { false }

    func prepare(_ descriptor: MethodDescriptor, _ context: RequestContext) throws -> Preparation? {
        // Only a logged-in request can rest on a credential another daemon revoked.
        guard descriptor.access != .open, context.session.login != nil else { return nil }
        return logins.catchUpBeforeServing
    }
}
