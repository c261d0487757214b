extension RequestProcessor {
    /// Calls `method` in-process with typed params and decodes its typed result, as a client on the socket would:
    /// how another transport (the Mastodon API over HTTP) reaches the one request layer, so that every rule, check
    /// and rate it applies is the same one a JSON-RPC line meets.
    public nonisolated(nonsending) func call<Params, Result>(
        _ method: RPCMethod<Params, Result>, _ params: Params, context: Context
    )
        async throws(RPCError) -> Result
    {
        try method.decodedResult(try await encodedCall(method, params, context: context))
    }

    /// Calls a method that takes no params.
    public nonisolated(nonsending) func call<Result>(_ method: RPCMethod<NoParams, Result>, context: Context)
        async throws(RPCError)
        -> Result
    {
        try await call(method, NoParams(), context: context)
    }

    /// `call`, giving the result as the layer wrote it (its JSON) rather than decoded: for a caller that renders
    /// the same answer bytes once and keeps the rendering (the Mastodon API's `StatusPageRenderings`).
    public nonisolated(nonsending) func encodedCall<Params, Result>(
        _ method: RPCMethod<Params, Result>, _ params: Params, context: Context
    )
        async throws(RPCError) -> [UInt8]
    {
        let members: JSONValue?
        if params is NoParams {
            members = nil
        } else {
            do {
                members = try JSONValueEncoder.encode(params)
            } catch {
                throw RPCError.invalidParams(fields: [:], detail: "params of \(method.name) could not be encoded")
            }
        }
        return try await run(method.name, params: members, context: context).get()
    }
}

extension RPCMethod {
    /// The typed result in `encoded`, the JSON the layer answered this method with.
    public func decodedResult(_ encoded: [UInt8]) throws(RPCError) -> Result {
        do {
            return try JSONValueDecoder().decode(Result.self, from: try JSONParser().parse(encoded))
        } catch {
            throw RPCError.internalError(errorID: "decoding the result of \(name)")
        }
    }
}
