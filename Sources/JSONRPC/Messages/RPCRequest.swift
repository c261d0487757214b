// @MemberwiseInit
/// A request object that passed the envelope rules: version, method and params shape.
public struct RPCRequest: Sendable {
    /// The id to echo; nil for a notification, which gets no response.
    public var id: RPCID?
    /// The method name.
    public var method: String
    /// The params member as sent: an object, an array, or nil when absent.
    public var params: JSONValue?

    /// Checks the envelope rules of JSON-RPC 2.0 on one member of a line.
    ///
    /// On failure the error carries the id when one could be read, so the client can still match the answer.
    public static func validate(_ value: JSONValue) -> Result<RPCRequest, EnvelopeError> {
        guard case .object(let members) = value else {
            return .failure(EnvelopeError(id: .null, error: .invalidRequest("a request must be a JSON object")))
        }
        var rawID: JSONValue?
        var version: JSONValue?
        var methodName: JSONValue?
        var params: JSONValue?
        // One pass comparing keys instead of four hashed lookups: this runs for every request.
        for (key, member) in members {
            switch key {
            case "id": rawID = member
            case "jsonrpc": version = member
            case "method": methodName = member
            case "params": params = member
            default: continue
            }
        }
        var id: RPCID?
        if let rawID {
            guard let parsed = RPCID(rawID) else {
                return .failure(EnvelopeError(id: .null, error: .invalidRequest("id must be a string, number or null")))
            }
            id = parsed
        }
        let echoID = id ?? .null
        guard version == .string("2.0") else {
            return .failure(EnvelopeError(id: echoID, error: .invalidRequest("jsonrpc must be exactly \"2.0\"")))
        }
        guard case .string(let method) = methodName else {
            return .failure(EnvelopeError(id: echoID, error: .invalidRequest("method must be a string")))
        }
        switch params {
        case nil, .object?, .array?:
            break
        default:
            return .failure(EnvelopeError(id: echoID, error: .invalidRequest("params must be an object or an array")))
        }
        return .success(RPCRequest(id: id, method: method, params: params))
    }
}

/// A request that broke an envelope rule, with the id to answer it under.
public struct EnvelopeError: Error, Sendable {
    /// The id read from the request, or null when none could be read.
    public var id: RPCID
    /// The Invalid Request error to send.
    public var error: RPCError
}
