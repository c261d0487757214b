/// The one error type of the domain: a machine-readable kind, a message for people, and per-field messages.
///
/// Every layer throws this type for anything a client should see; the server maps `kind` to a JSON-RPC code in
/// one table, so a new failure never needs a new code path in the transport.
public struct TwitterError: Error, Sendable, Equatable {
    /// What went wrong, in a form a program can branch on.
    public var kind: Kind
    /// A sentence for people, safe to show to the client.
    public var message: String
    /// Per-field messages for validation failures, keyed by the request's field name.
    public var fields: [String: String]
    /// Extra machine-readable facts, such as `retryAfter` or `currentVersion`.
    public var details: [String: Detail]

    /// Creates an error of `kind` with a message and optional per-field messages and details.
    public init(_ kind: Kind, _ message: String, fields: [String: String] = [:], details: [String: Detail] = [:]) {
        self.kind = kind
        self.message = message
        self.fields = fields
        self.details = details
    }
}

extension TwitterError {
    /// The machine-readable kinds; the raw value is what clients see in `error.data.kind`.
    public enum Kind: String, Sendable, CaseIterable {
        case invalidParams = "invalid_params"
        case unauthenticated
        case invalidCredentials = "invalid_credentials"
        case forbidden
        case notFound = "not_found"
        case conflict
        case rateLimited = "rate_limited"
        case unavailable
        case `internal`
    }

    /// A scalar detail value; kept small on purpose so the core needs no JSON type.
    public enum Detail: Sendable, Equatable {
        case int(Int)
        case string(String)
    }
}

extension TwitterError {
    /// A validation failure listing every failing field at once.
    public static func invalidFields(_ fields: [String: String]) -> TwitterError {
        let names = fields.keys.sorted().joined(separator: ", ")
        return TwitterError(.invalidParams, "Invalid params: \(names)", fields: fields)
    }

    /// The connection must log in before calling this method.
    public static let unauthenticated = TwitterError(
        .unauthenticated, "Log in first: this method needs an authenticated connection")

    /// A resource that does not exist, or that the caller may not know exists.
    public static func notFound(_ what: String) -> TwitterError {
        TwitterError(.notFound, "\(what) not found")
    }

    /// Too many attempts; `retryAfter` says how many seconds to wait, `limit` the bucket's size when there is one
    /// (the Mastodon API's `X-RateLimit-Limit`).
    public static func rateLimited(retryAfter seconds: Int, limit: Int? = nil, _ message: String = "Too many attempts")
        -> TwitterError
    {
        var details: [String: Detail] = ["retryAfter": .int(seconds)]
        if let limit { details["limit"] = .int(limit) }
        return TwitterError(.rateLimited, "\(message); retry in \(seconds) s", details: details)
    }

    /// The daemon is at a capacity limit and cannot take this request now.
    public static func unavailable(_ message: String) -> TwitterError {
        TwitterError(.unavailable, message)
    }

    /// Something the daemon depends on (its database) does not answer now; `retryAfter` says when to try again.
    public static func unavailable(retryAfter seconds: Int, _ message: String) -> TwitterError {
        TwitterError(.unavailable, "\(message); retry in \(seconds) s", details: ["retryAfter": .int(seconds)])
    }
}
