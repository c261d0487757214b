import JSONRPC
import TwitterAPI

/// An endpoint's refusal as Mastodon gives it: an HTTP status and `{"error": "..."}`.
public struct MastodonError: Error, Sendable, Equatable {
    /// The HTTP status: 401, 403, 404, 422, 429, 503 or 500.
    public var status: Int
    /// The text of the `error` member.
    public var message: String
    /// Extra headers, such as the `X-RateLimit-*` of a 429.
    public var headers: [MastodonHeader]

    /// An error with `status` and `message`.
    public init(status: Int, _ message: String, headers: [MastodonHeader] = []) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    /// 404, as Mastodon answers for what does not exist or may not be seen.
    public static func notFound(_ message: String = "Record not found") -> MastodonError {
        MastodonError(status: 404, message)
    }

    /// 422, for params Mastodon would call invalid.
    public static func unprocessable(_ message: String) -> MastodonError {
        MastodonError(status: 422, message)
    }
}
