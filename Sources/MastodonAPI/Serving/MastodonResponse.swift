// @MemberwiseInit
/// What an endpoint answers: a status, extra headers (`Link`, `X-RateLimit-*`) and a JSON body.
public struct MastodonResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Headers besides `Content-Type: application/json`, in order.
    public var headers: [MastodonHeader]
    /// The JSON body.
    public var body: [UInt8]
}

// @MemberwiseInit
/// One response header.
public struct MastodonHeader: Sendable, Equatable {
    /// The header's name.
    public var name: String
    /// Its value.
    public var value: String
}
