import TwitterAPI

/// Mastodon's paging (`max_id`, `since_id`, `min_id`, `limit`) mapped onto ours, and the `Link` header that
/// tells a client where the next and previous pages are.
///
/// A timeline pages by tweet id (`maxId`, `sinceId`); a page of people or of bookmarks pages by our cursor,
/// which travels in `max_id` (Mastodon.py keeps a `max_id` that is not a number as text). toot reads only a
/// `Link` that starts with `<...>; rel="next"`, so `next` comes first; on the last page it is left out, which is
/// how both clients know to stop.
struct MastodonPaging: Sendable {
    /// Only items older than this id (a timeline) or after this cursor (a page by cursor).
    var maxID: String?
    /// Only items newer than this id.
    var sinceID: Int64?
    /// Items newer than this id: served as `sinceID` (the newest page after it).
    var minID: Int64?
    /// How many, as the client asked; nil for the method's default.
    var requestedLimit: Int?

    /// The paging params of `params`; a `since_id` or `min_id` that is not an id is 422.
    init(_ params: MastodonParams) throws(MastodonError) {
        maxID = params.string("max_id").flatMap { $0.isEmpty ? nil : $0 }
        sinceID = try Self.id(params, "since_id")
        minID = try Self.id(params, "min_id")
        requestedLimit = try params.int("limit")
    }

    /// The page size to ask the layer for: the client's, within 1 and `size`'s maximum (Mastodon clamps too).
    func limit(_ size: API.PageSize) -> Int? {
        requestedLimit.map { min(max($0, 1), size.maximum) }
    }

    /// `max_id` as a tweet id; 422 when it is not one.
    func maxTweetID() throws(MastodonError) -> Int64? {
        guard let maxID else { return nil }
        guard let id = Int64(maxID), id >= 0 else { throw .unprocessable("max_id must be a status id") }
        return id
    }

    /// The lower bound of a timeline page: `since_id`, else `min_id`.
    var lowerID: Int64? { sinceID ?? minID }

    private static func id(_ params: MastodonParams, _ key: String) throws(MastodonError) -> Int64? {
        guard let text = params.string(key), !text.isEmpty else { return nil }
        guard let id = Int64(text), id >= 0 else { throw .unprocessable("\(key) must be an id") }
        return id
    }
}

/// Writes the `Link` header of a page.
enum MastodonLink {
    /// The keys that page: left out of the links' other params, which repeat the request's.
    private static let pagingKeys: Set<String> = ["max_id", "since_id", "min_id"]
    /// Keys Mastodon takes as arrays: written `key[]=` even with one value.
    private static let arrayKeys: Set<String> = ["types", "exclude_types", "account_ids", "id"]

    /// The `Link` header for a page served at `path` (a pattern: `:name` is replaced by the request's captured
    /// segment) with `next` as the next page's `max_id` and `previous` as the previous page's `min_id`; nil when
    /// there is neither.
    static func header(for request: MastodonRequest, path: String, next: String?, previous: String?)
        -> MastodonHeader?
    {
        guard next != nil || previous != nil else { return nil }
        // Gathered as bytes: joining strings piece by piece was 17,000 instructions of a kept home page (callgrind).
        var base: [UInt8] = []
        base.reserveCapacity(128)
        base += request.origin.utf8
        base += resolve(path, request.pathParameters).utf8
        base.append(UInt8(ascii: "?"))
        appendOtherParams(request.params, to: &base)
        var link: [UInt8] = []
        link.reserveCapacity(2 * base.count + 64)
        func append(_ id: String, key: String, relation: String) {
            if !link.isEmpty { link += ", ".utf8 }
            link.append(UInt8(ascii: "<"))
            link += base
            link += key.utf8
            appendPercentEncoded(id, to: &link)
            link += relation.utf8
        }
        if let next { append(next, key: "max_id=", relation: #">; rel="next""#) }
        if let previous { append(previous, key: "min_id=", relation: #">; rel="prev""#) }
        return MastodonHeader(name: "Link", value: String(decoding: link, as: UTF8.self))
    }

    /// The path with its `:name` segments filled in.
    static func resolve(_ path: String, _ parameters: [String: String]) -> String {
        // Most paged paths name no parameter (home, public): nothing to split and join again.
        guard path.utf8.contains(UInt8(ascii: ":")) else { return path }
        return path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix(":") ? percentEncoded(parameters[String(segment.dropFirst())] ?? "") : String(segment)
        }.joined(separator: "/")
    }

    /// The request's params but the paging ones, each followed by `&`, keys sorted so a link is always the same.
    private static func appendOtherParams(_ params: MastodonParams, to bytes: inout [UInt8]) {
        for key in params.values.keys.sorted() where !pagingKeys.contains(key) {
            let values = params.values[key] ?? []
            let name = arrayKeys.contains(key) || values.count > 1 ? key + "[]" : key
            for value in values {
                appendPercentEncoded(name, to: &bytes)
                bytes.append(UInt8(ascii: "="))
                appendPercentEncoded(value, to: &bytes)
                bytes.append(UInt8(ascii: "&"))
            }
        }
    }

    /// `text` with every byte but RFC 3986's unreserved ones percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        // Most (ids, names) have nothing to encode: they are used as they are.
        guard !text.utf8.allSatisfy(isUnreserved) else { return text }
        var encoded: [UInt8] = []
        appendPercentEncoded(text, to: &encoded)
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Appends `text` percent-encoded to `bytes`.
    private static func appendPercentEncoded(_ text: String, to bytes: inout [UInt8]) {
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// RFC 3986's unreserved bytes: letters, digits, `-`, `.`, `_` and `~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
