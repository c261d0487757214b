// @MemberwiseInit
/// A JSON-RPC error object: code, message and the structured `data` member.
///
/// Every error this library produces carries `data.kind`, so clients can branch on a word instead of a number.
public struct RPCError: Error, Sendable, Equatable {
    /// The JSON-RPC error code.
    public var code: Int
    /// The short message; for the standard codes it is the specification's wording.
    public var message: String
    /// Structured details; always an object holding at least `kind`.
    public var data: JSONValue

    /// Creates an error whose data is `kind` plus the given members.
    public init(code: Int, message: String, kind: String, _ extra: [String: JSONValue] = [:]) {
        var members = extra
        members["kind"] = .string(kind)
        self.init(code: code, message: message, data: .object(members))
    }
}

extension RPCError {
    /// The standard codes of the JSON-RPC 2.0 specification.
    public enum StandardCode {
        /// Invalid JSON was received.
        public static let parseError = -32700
        /// The JSON sent is not a valid request object.
        public static let invalidRequest = -32600
        /// The method does not exist or is not available.
        public static let methodNotFound = -32601
        /// Invalid method parameters.
        public static let invalidParams = -32602
        /// Internal JSON-RPC error.
        public static let internalError = -32603
    }

    /// The line was not valid JSON; `detail` says where and why.
    public static func parseError(_ detail: String) -> RPCError {
        RPCError(
            code: StandardCode.parseError, message: "Parse error", kind: "parse_error", ["detail": .string(detail)])
    }

    /// The JSON was valid but not a request object; `detail` says which rule it broke.
    public static func invalidRequest(_ detail: String, _ extra: [String: JSONValue] = [:]) -> RPCError {
        var members = extra
        members["detail"] = .string(detail)
        return RPCError(code: StandardCode.invalidRequest, message: "Invalid Request", kind: "invalid_request", members)
    }

    /// No method of that name is served.
    public static func methodNotFound(_ method: String) -> RPCError {
        RPCError(
            code: StandardCode.methodNotFound, message: "Method not found", kind: "method_not_found",
            ["method": .string(method)]
        )
    }

    /// The params did not fit the method; `fields` maps each failing field to what is wrong with it.
    public static func invalidParams(fields: [String: String], detail: String? = nil) -> RPCError {
        var members: [String: JSONValue] = ["fields": .object(fields.mapValues { .string($0) })]
        if let detail { members["detail"] = .string(detail) }
        return RPCError(code: StandardCode.invalidParams, message: "Invalid params", kind: "invalid_params", members)
    }

    /// Something failed inside the server; `errorID` lets an operator find the logged cause.
    public static func internalError(errorID: String) -> RPCError {
        RPCError(
            code: StandardCode.internalError, message: "Internal error", kind: "internal",
            ["errorId": .string(errorID)]
        )
    }
}
