/// One Mastodon endpoint: a method and a path pattern (`/api/v1/statuses/:id`) and what answers it.
public struct MastodonEndpoint: Sendable {
    /// What answers a request: the request, and the request layer as its caller reaches it.
    public typealias Handle = @Sendable (MastodonRequest, any MastodonCaller) async throws -> MastodonResponse

    /// The HTTP method, upper case.
    public let method: String
    /// The path, with `:name` for a captured segment.
    public let path: String
    /// The handler.
    public let handle: Handle

    /// An endpoint answering `method` on `path` with `handle`.
    public init(_ method: String, _ path: String, _ handle: @escaping Handle) {
        self.method = method
        self.path = path
        self.handle = handle
    }
}
