import Foundation
import JSONRPC

extension MastodonError {
    /// The layer's refusal as Mastodon answers it: -32001/-32002 401, -32003 403, -32004 and -32601 404,
    /// -32602/-32600/-32005 422, -32006 429 with `X-RateLimit-*` from what the error carries, -32008 503, anything
    /// else 500 (its message kept, as the layer already keeps secrets out of it).
    public init(_ error: RPCError, now: Date = Date()) {
        let status: Int
        var headers: [MastodonHeader] = []
        switch error.code {
        case -32001, -32002: status = 401
        case -32003: status = 403
        case -32004, RPCError.StandardCode.methodNotFound: status = 404
        case RPCError.StandardCode.invalidParams, RPCError.StandardCode.invalidRequest, -32005: status = 422
        case -32006:
            status = 429
            headers = Self.rateHeaders(error.data, now: now)
        case -32008: status = 503
        default: status = 500
        }
        self.init(status: status, Self.text(of: error), headers: headers)
    }

    /// The message, with the params check's detail or fields when it has them: "Invalid params" alone tells a
    /// client nothing.
    private static func text(of error: RPCError) -> String {
        if let detail = error.data["detail"], case .string(let text) = detail { return "\(error.message): \(text)" }
        if case .object(let fields)? = error.data["fields"], !fields.isEmpty {
            let named = fields.keys.sorted().map { key -> String in
                if case .string(let problem)? = fields[key] { return "\(key) \(problem)" }
                return key
            }
            return "\(error.message): \(named.joined(separator: "; "))"
        }
        return error.message
    }

    /// `X-RateLimit-Limit`, `-Remaining` (0: the call was refused) and `-Reset` (ISO 8601, when the next call is
    /// allowed) from the rate error's `limit` and `retryAfter`.
    static func rateHeaders(_ data: JSONValue, now: Date) -> [MastodonHeader] {
        var headers: [MastodonHeader] = []
        if case .number(let limit)? = data["limit"] {
            headers.append(MastodonHeader(name: "X-RateLimit-Limit", value: limit.text))
        }
        headers.append(MastodonHeader(name: "X-RateLimit-Remaining", value: "0"))
        var seconds = 0.0
        if case .number(let retry)? = data["retryAfter"], let value = Double(retry.text) { seconds = value }
        let reset = now.addingTimeInterval(seconds)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        headers.append(MastodonHeader(name: "X-RateLimit-Reset", value: formatter.string(from: reset)))
        if seconds > 0 { headers.append(MastodonHeader(name: "Retry-After", value: String(Int(seconds.rounded(.up))))) }
        return headers
    }

    /// The body Mastodon gives an error: `{"error": "..."}`.
    public var body: [UInt8] {
        var bytes: [UInt8] = []
        JSONObjectWriter.write(into: &bytes) { object, bytes in object.string("error", message, into: &bytes) }
        return bytes
    }

    /// The error as a response.
    public var response: MastodonResponse {
        MastodonResponse(status: status, headers: headers, body: body)
    }
}
