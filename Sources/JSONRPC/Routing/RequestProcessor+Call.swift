extension RequestProcessor {
    /// Calls `method` in-process with typed params and decodes its typed result, as a client on the socket would:
    /// how another transport (the Mastodon API over HTTP) reaches the one request layer, so that every rule, check
    /// and rate it applies is the same one a JSON-RPC line meets.
    public func call<Params, Result>(_ method: RPCMethod<Params, Result>, _ params: Params, context: Context)
        async throws(RPCError) -> Result
    {
        let members: JSONValue?
        if params is NoParams {
            members = nil
        } else {
            do {
                members = try JSONParser().parse(try ResultEncoder.encode(params))
            } catch {
                throw RPCError.invalidParams(fields: [:], detail: "params of \(method.name) could not be encoded")
            }
        }
        switch await run(method.name, params: members, context: context) {
        case .failure(let error): throw error
        case .success(let encoded):
            do {
                return try JSONValueDecoder().decode(Result.self, from: try JSONParser().parse(encoded))
            } catch {
                throw RPCError.internalError(errorID: "decoding the result of \(method.name)")
            }
        }
    }

    /// Calls a method that takes no params.
    public func call<Result>(_ method: RPCMethod<NoParams, Result>, context: Context) async throws(RPCError)
        -> Result
    {
        try await call(method, NoParams(), context: context)
    }
}
