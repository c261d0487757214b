import JSONRPC

/// The one request layer as a Mastodon endpoint reaches it: typed calls of the daemon's own methods (TwitterAPI),
/// made as the request's caller (the account its bearer token logged in, or nobody).
///
/// An endpoint only translates: Mastodon's params into a method's params, the method's result into Mastodon's
/// entities. Every rule, visibility check, scope and rate is the layer's, met exactly as a JSON-RPC line meets
/// it; the HTTP transport implements this over `RequestProcessor.encodedCall`, tests may implement it over a
/// socket.
public protocol MastodonCaller: Sendable {
    /// Calls `method` with `params` as this request's caller and gives its result as the layer wrote it (JSON);
    /// a refusal is the layer's `RPCError`.
    func encodedCall<Params, Result>(_ method: RPCMethod<Params, Result>, _ params: Params) async throws(RPCError)
        -> [UInt8]
}

extension MastodonCaller {
    /// Calls `method` with `params` and decodes its typed result.
    public func call<Params, Result>(_ method: RPCMethod<Params, Result>, _ params: Params) async throws(RPCError)
        -> Result
    {
        try method.decodedResult(try await encodedCall(method, params))
    }

    /// Calls a method that takes no params.
    public func call<Result>(_ method: RPCMethod<NoParams, Result>) async throws(RPCError) -> Result {
        try await call(method, NoParams())
    }
}
