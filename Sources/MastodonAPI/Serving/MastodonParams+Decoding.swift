import JSONRPC

/// Reading params from the bytes a client sends: the query string, and a body in any of the encodings Mastodon
/// clients use (toot posts JSON, Mastodon.py forms, some multipart), DELETE's included. Pure functions, so the
/// transport only hands over bytes and a content type.
extension MastodonParams {
    /// Params from `query` (without `?`) and `body` of `contentType`; the body's values come after the query's.
    /// A body that cannot be read is a 400 (`MastodonError`) saying why.
    public static func decode(query: Substring?, body: [UInt8], contentType: String?)
        throws(MastodonError) -> MastodonParams
    {
        var params = MastodonParams()
        if let query, !query.isEmpty { params.appendForm(Array(query.utf8)) }
        guard !body.isEmpty else { return params }
        let (mediaType, attributes) = Self.mediaType(contentType ?? "")
        switch mediaType {
        case "application/json":
            try params.appendJSON(body)
        case "multipart/form-data":
            guard let boundary = attributes["boundary"], !boundary.isEmpty else {
                throw MastodonError(status: 400, "multipart/form-data needs a boundary")
            }
            try params.appendMultipart(body, boundary: boundary)
        case "application/x-www-form-urlencoded", "":
            params.appendForm(body)
        default:
            throw MastodonError(
                status: 415, "Unsupported Content-Type \(mediaType): send JSON, a form or multipart/form-data")
        }
        return params
    }

    /// Adds one value under `rawKey`, whose `key[]` and `key[N]` forms name an array `key`.
    mutating func append(rawKey: String, _ value: String) {
        values[Self.arrayName(rawKey), default: []].append(value)
    }

    /// `types[]` and `types[0]` are `types`; anything else is itself.
    static func arrayName(_ key: String) -> String {
        guard key.hasSuffix("]"), let open = key.lastIndex(of: "["), open != key.startIndex else { return key }
        let inside = key[key.index(after: open)..<key.index(before: key.endIndex)]
        return inside.allSatisfy(\.isNumber) ? String(key[..<open]) : key
    }

    /// `a=1&b=2` with percent-decoding and `+` as a space.
    mutating func appendForm(_ bytes: [UInt8]) {
        for pair in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let key = Self.percentDecoded(pair[..<(equals ?? pair.endIndex)])
            let value = equals.map { Self.percentDecoded(pair[pair.index(after: $0)...]) } ?? ""
            guard !key.isEmpty else { continue }
            append(rawKey: key, value)
        }
    }

    /// Percent-decodes form text; a `%` not followed by two hex digits stays as it is.
    static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
                continue
            } else {
                out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A JSON object: scalars as text, arrays as repeated values, nested objects flattened as `outer[inner]`.
    mutating func appendJSON(_ bytes: [UInt8]) throws(MastodonError) {
        let value: JSONValue
        do {
            value = try JSONParser(maximumDepth: 16).parse(bytes)
        } catch {
            throw MastodonError(status: 400, "The JSON body could not be parsed: \(error)")
        }
        guard case .object(let members) = value else {
            throw MastodonError(status: 400, "The JSON body must be an object")
        }
        for key in members.keys.sorted() {
            if let member = members[key] { appendJSON(member, key: key) }
        }
    }

    private mutating func appendJSON(_ value: JSONValue, key: String) {
        switch value {
        case .null: break
        case .bool(let flag): append(rawKey: key, flag ? "true" : "false")
        case .number(let number): append(rawKey: key, number.text)
        case .string(let text): append(rawKey: key, text)
        case .array(let elements):
            for element in elements {
                switch element {
                case .object, .array: appendJSON(element, key: key)
                default: appendJSON(element, key: key + "[]")
                }
            }
        case .object(let members):
            for inner in members.keys.sorted() {
                if let member = members[inner] { appendJSON(member, key: "\(key)[\(inner)]") }
            }
        }
    }

    /// `multipart/form-data`: each part's `name` and its content as text (files are not taken: no media here).
    mutating func appendMultipart(_ body: [UInt8], boundary: String) throws(MastodonError) {
        let delimiter = Array("--\(boundary)".utf8)
        var parts: [ArraySlice<UInt8>] = []
        var searchFrom = body.startIndex
        var partStart: Int?
        var closed = false
        while let found = Self.firstRange(of: delimiter, in: body, from: searchFrom) {
            if let start = partStart {
                // The part ends at the CRLF before the delimiter.
                var end = found
                if end >= start + 2, body[end - 2] == 13, body[end - 1] == 10 { end -= 2 }
                parts.append(body[start..<max(start, end)])
            }
            var after = found + delimiter.count
            if after + 1 < body.count, body[after] == UInt8(ascii: "-"), body[after + 1] == UInt8(ascii: "-") {
                closed = true
                break
            }
            if after + 1 < body.count, body[after] == 13, body[after + 1] == 10 { after += 2 }
            partStart = after
            searchFrom = after
        }
        guard closed else { throw MastodonError(status: 400, "The multipart body does not end with its boundary") }
        for part in parts {
            guard let split = Self.firstRange(of: Array("\r\n\r\n".utf8), in: Array(part), from: 0) else {
                throw MastodonError(status: 400, "A multipart part has no blank line after its headers")
            }
            let bytes = Array(part)
            let headers = String(decoding: bytes[..<split], as: UTF8.self)
            let content = String(decoding: bytes[(split + 4)...], as: UTF8.self)
            guard let name = Self.partName(headers) else {
                throw MastodonError(status: 400, "A multipart part has no Content-Disposition name")
            }
            if headers.lowercased().contains("filename=") { continue }
            append(rawKey: name, content)
        }
    }

    private static func partName(_ headers: String) -> String? {
        for line in headers.split(separator: "\r\n") {
            let (name, attributes) = mediaType(String(line.drop { $0 != ":" }.dropFirst()))
            guard line.lowercased().hasPrefix("content-disposition:"), name == "form-data" else { continue }
            return attributes["name"]
        }
        return nil
    }

    private static func firstRange(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }

    /// `type/subtype; a=b; c="d"` as the lower-cased type and its attributes (quotes removed).
    static func mediaType(_ header: String) -> (String, [String: String]) {
        let pieces = header.split(separator: ";")
        let type = pieces.first.map { $0.trimmingSpaces.lowercased() } ?? ""
        var attributes: [String: String] = [:]
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let name = piece[..<equals].trimmingSpaces.lowercased()
            var value = piece[piece.index(after: equals)...].trimmingSpaces
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            attributes[name] = value
        }
        return (type, attributes)
    }
}

extension StringProtocol {
    /// Without its leading and trailing spaces and tabs. Found by index, not by reversing the characters into a
    /// new String: that way was 8 % of a `POST /api/v1/statuses` (perf, C client 64 × 1).
    fileprivate var trimmingSpaces: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
