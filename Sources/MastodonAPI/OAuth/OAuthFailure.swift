import JSONRPC
import TwitterAPI
import TwitterCore

/// An OAuth error as Doorkeeper (Mastodon's OAuth) answers it: `{"error": "invalid_grant", "error_description":
/// ...}`, 401 for a client that failed to authenticate, 400 for the rest; a throttled login is 429 and a
/// suspended account 403, as the rest of the API answers them.
struct OAuthFailure: Encodable {
    var status: Int
    var error: String
    var description: String

    init(status: Int, error: String, description: String) {
        self.status = status
        self.error = error
        self.description = description
    }

    /// The failure the layer's refusal stands for: its `oauthError` when it names one, else by its kind.
    init(_ refusal: RPCError) {
        var named: String?
        if case .object(let members) = refusal.data, case .string(let code)? = members["oauthError"] {
            named = code
        }
        description = refusal.message
        let answer = Self.statusAndCode(named: named, kind: ErrorCodes.kind(of: refusal.code))
        status = answer.status
        error = answer.code
    }

    private static func statusAndCode(named: String?, kind: TwitterError.Kind?) -> (status: Int, code: String) {
        switch (named, kind) {
        case ("invalid_client"?, _): (401, "invalid_client")
        case (let code?, _): (400, code)
        case (nil, .invalidCredentials?): (400, "invalid_grant")
        case (nil, .invalidParams?): (400, "invalid_request")
        case (nil, .rateLimited?): (429, "rate_limited")
        case (nil, .forbidden?): (403, "access_denied")
        case (nil, .unavailable?): (503, "temporarily_unavailable")
        default: (500, "server_error")
        }
    }

    enum CodingKeys: String, CodingKey {
        case error, description = "error_description"
    }

    /// The answer.
    var response: MastodonResponse {
        (try? OAuthJSON.response(self, status: status))
            ?? MastodonResponse(status: status, headers: [], body: Array("{\"error\":\"\(error)\"}".utf8))
    }

    /// The answer, thrown as a `MastodonError` when it is not an OAuth one (429, 403, 5xx), so the transport adds
    /// what it adds to those (`X-RateLimit-*`).
    func answer() throws -> MastodonResponse {
        guard status == 400 || status == 401 else { throw MastodonError(status: status, description) }
        return response
    }
}
