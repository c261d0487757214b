// @MemberwiseInit
/// One HTTP request to a Mastodon endpoint, as the transport read it: no HTTP types, so endpoints are tested
/// without a server.
public struct MastodonRequest: Sendable {
    /// The HTTP method, upper case: `GET`, `POST`, `PUT`, `PATCH`, `DELETE`.
    public var method: String
    /// The path's captured segments by name: `id` for `/api/v1/statuses/:id`.
    public var pathParameters: [String: String]
    /// The query's and the body's params together, whatever their encoding.
    public var params: MastodonParams
    /// The origin the client used, `http://127.0.0.1:3000`: links, `Link` headers and `streaming_api` name it.
    public var origin: String
    /// The `Idempotency-Key` header, if sent.
    public var idempotencyKey: String?
    /// The `Authorization: Bearer` token, if sent: for endpoints that ask the layer about the token itself
    /// (`apps/verify_credentials` of an app's own token, which logs nobody in).
    public var bearerToken: String?
}
