import JSONRPC

extension Router where Context == RequestContext {
    /// Registers `method` as a change the logged-in caller makes, answered with the same `answer`, a value of the
    /// method's declared result, whenever it succeeds (`{"deleted":true}`, `{"following":false}`): `change` gets
    /// the params and the caller's account id.
    mutating func register<Params, Result: Encodable & Sendable>(
        _ method: RPCMethod<Params, Result>, answering answer: Result,
        _ change: @escaping @Sendable (Params, _ caller: Int64) async throws -> Void
    ) {
        register(
            method,
            { (params: Params, context) in
                try await change(params, context.session.requireLogin().userID)
                return answer
            })
    }
}
