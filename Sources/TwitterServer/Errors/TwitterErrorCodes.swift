import JSONRPC
import TwitterCore

/// The one table from domain error kinds to JSON-RPC codes; docs/PROTOCOL.md lists the same table.
public enum TwitterErrorCodes {
    /// The JSON-RPC code for `kind`.
    public static func code(for kind: TwitterError.Kind) -> Int {
        switch kind {
        case .invalidParams: RPCError.StandardCode.invalidParams
        case .unauthenticated: -32001
        case .invalidCredentials: -32002
        case .forbidden: -32003
        case .notFound: -32004
        case .conflict: -32005
        case .rateLimited: -32006
        case .unavailable: -32008
        case .internal: RPCError.StandardCode.internalError
        }
    }
}

extension TwitterError {
    /// The error object sent to the client: the code from the table, `data.kind`, fields and details.
    public var rpcError: RPCError {
        if kind == .invalidParams {
            var error = RPCError.invalidParams(fields: fields, detail: fields.isEmpty ? message : nil)
            if case .object(var members) = error.data {
                for (key, value) in details { members[key] = value.jsonValue }
                error.data = .object(members)
            }
            return error
        }
        var members: [String: JSONValue] = [:]
        if !fields.isEmpty { members["fields"] = .object(fields.mapValues { .string($0) }) }
        for (key, value) in details { members[key] = value.jsonValue }
        return RPCError(code: TwitterErrorCodes.code(for: kind), message: message, kind: kind.rawValue, members)
    }
}

extension TwitterError.Detail {
    var jsonValue: JSONValue {
        switch self {
        case .int(let number): .number(JSONNumber(number))
        case .string(let text): .string(text)
        }
    }
}
