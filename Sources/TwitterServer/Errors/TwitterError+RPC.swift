import JSONRPC
import TwitterAPI
import TwitterCore

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
        return RPCError(code: ErrorCodes.code(for: kind), message: message, kind: kind.rawValue, members)
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
