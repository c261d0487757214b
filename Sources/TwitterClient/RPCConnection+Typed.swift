import JSONRPC

/// A typed call's result together with the JSON it was decoded from, for callers that print the raw answer
/// (twctl's `--json`).
public struct TypedAnswer<Result: Sendable>: Sendable {
    /// The decoded result.
    public var result: Result
    /// The result as the daemon sent it.
    public var json: JSONValue
}

extension RPCConnection {
    /// Calls `method` with typed `params` and decodes its result; a result of another shape throws
    /// `ClientError.invalidResponse`.
    public func call<Params, Result>(_ method: RPCMethod<Params, Result>, _ params: Params) async throws -> Result {
        try await answer(method, params).result
    }

    /// Calls a method that takes no params.
    public func call<Result>(_ method: RPCMethod<NoParams, Result>) async throws -> Result {
        try await answer(method, NoParams()).result
    }

    /// Calls `method` and returns its decoded result with the raw JSON it came as.
    public func answer<Params, Result>(_ method: RPCMethod<Params, Result>, _ params: Params) async throws
        -> TypedAnswer<Result>
    {
        // Optional.none, not JSONValue's nil literal (null): a method without params gets no params member.
        let members: JSONValue? = params is NoParams ? .none : try Self.encoded(params)
        let json = try await call(method.name, members)
        return TypedAnswer(result: try Self.decoded(Result.self, from: json, method: method.name), json: json)
    }

    /// Calls a method that takes no params and returns its decoded result with the raw JSON.
    public func answer<Result>(_ method: RPCMethod<NoParams, Result>) async throws -> TypedAnswer<Result> {
        try await answer(method, NoParams())
    }

    /// Decodes a notification's params as `kind` declares them; nil when it is another notification.
    public func decode<Params>(_ notification: Notification, as kind: RPCNotification<Params>) throws -> Params? {
        guard notification.method == kind.name else { return nil }
        return try Self.decoded(Params.self, from: notification.params, method: kind.name)
    }

    static func encoded(_ params: some Encodable) throws -> JSONValue {
        try JSONParser().parse(try ResultEncoder.encode(params))
    }

    static func decoded<Value: Decodable>(_ type: Value.Type, from json: JSONValue, method: String) throws -> Value {
        do {
            return try JSONValueDecoder().decode(type, from: json)
        } catch let error as DecodingError {
            let fields = DecodingFailure.fields(of: error).map { "\($0.key) \($0.value)" }.sorted()
            throw ClientError.invalidResponse(
                "\(method) answered in an unexpected shape: \(fields.joined(separator: "; "))")
        }
    }
}
