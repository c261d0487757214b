/// The answers endpoints build.
extension MastodonResponse {
    /// 200 with `body` and `headers`.
    static func json(_ body: [UInt8], headers: [MastodonHeader] = []) -> MastodonResponse {
        MastodonResponse(status: 200, headers: headers, body: body)
    }

    /// 200 with the JSON `write` appends.
    static func json(headers: [MastodonHeader] = [], _ write: (inout [UInt8]) -> Void) -> MastodonResponse {
        var body: [UInt8] = []
        body.reserveCapacity(1024)
        write(&body)
        return MastodonResponse(status: 200, headers: headers, body: body)
    }

    /// 200 with `{}`: what Mastodon answers a delete, a dismiss or a clear.
    static var empty: MastodonResponse { json(Array("{}".utf8)) }

    /// 200 with `[]`: a list we never have anything in (filters, custom emojis).
    static var emptyArray: MastodonResponse { json(Array("[]".utf8)) }
}
