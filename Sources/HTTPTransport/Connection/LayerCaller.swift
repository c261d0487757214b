import JSONRPC
import MastodonAPI
import TwitterServer

/// The request layer as an endpoint reaches it over HTTP: each call runs through the same route, middleware,
/// params check and handler as a JSON-RPC line, as the connection's session (logged in by its bearer token).
struct LayerCaller: MastodonCaller {
    let processor: RequestProcessor<RequestContext>
    let context: RequestContext

    func encodedCall<Params, Result>(_ method: RPCMethod<Params, Result>, _ params: Params) async throws(RPCError)
        -> [UInt8]
    {
        try await processor.encodedCall(method, params, context: context)
    }
}
