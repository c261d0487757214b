// @MemberwiseInit
/// What an endpoint answers: a status, extra headers (`Link`, `X-RateLimit-*`) and a JSON body.
public struct MastodonResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Headers besides `Content-Type: application/json`, in order.
    public var headers: [MastodonHeader]
    /// The JSON body.
    public var body: [UInt8]
    /// Where the compressed form of `body` is kept when the body is a kept rendering's (`KeptCompression`); nil
    /// for a body made for this answer alone, which the transport compresses afresh if at all.
    public var compression: KeptCompression?
}

// @MemberwiseInit
/// One response header.
public struct MastodonHeader: Sendable, Equatable {
    /// The header's name.
    public var name: String
    /// Its value.
    public var value: String
}
