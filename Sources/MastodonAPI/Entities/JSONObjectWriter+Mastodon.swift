import JSONRPC

// The member shapes Mastodon's entities use beyond the protocol's own: ids as strings, nulls, empty arrays,
// raw JSON already written.
extension JSONObjectWriter {
    /// A member holding an id as a string: Mastodon's ids are strings (toot writes them to files as they are).
    public mutating func stringID(_ key: StaticString, _ id: Int64?, into bytes: inout [UInt8]) {
        self.key(key, into: &bytes)
        guard let id else {
            bytes.append(contentsOf: Self.null)
            return
        }
        bytes.append(UInt8(ascii: "\""))
        JSONObjectWriter.writeInteger(id, into: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A member holding the URL `origin` + `path` + `tail`, written piece by piece: an entity names several URLs
    /// of one origin, and joining each as a `String` first cost a page of statuses an allocation per URL.
    public mutating func url(
        _ key: StaticString, _ origin: String, _ path: StaticString, _ tail: String = "", into bytes: inout [UInt8]
    ) {
        self.key(key, into: &bytes)
        bytes.append(UInt8(ascii: "\""))
        Self.appendEscaped(origin, into: &bytes)
        path.withUTF8Buffer { bytes.append(contentsOf: $0) }
        Self.appendEscaped(tail, into: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `text` as the inside of a JSON string literal: `"`, `\` and control characters escaped.
    static func appendEscaped(_ text: String, into bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            // Names and origins need no escaping: copied as they are; anything else goes the protocol's way.
            guard utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                bytes.append(contentsOf: utf8)
                return
            }
            var quoted: [UInt8] = []
            JSONValue.writeString(String(decoding: utf8, as: UTF8.self), into: &quoted)
            bytes.append(contentsOf: quoted[1..<(quoted.count - 1)])
        }
    }

    /// A member holding a string, or null.
    public mutating func optionalString(_ key: StaticString, _ value: String?, into bytes: inout [UInt8]) {
        self.key(key, into: &bytes)
        if let value {
            JSONValue.writeString(value, into: &bytes)
        } else {
            bytes.append(contentsOf: Self.null)
        }
    }

    /// A member holding null: a documented field we have no value for.
    public mutating func null(_ key: StaticString, into bytes: inout [UInt8]) {
        self.key(key, into: &bytes)
        bytes.append(contentsOf: Self.null)
    }

    /// A member holding `[]`.
    public mutating func emptyArray(_ key: StaticString, into bytes: inout [UInt8]) {
        self.key(key, into: &bytes)
        bytes.append(UInt8(ascii: "["))
        bytes.append(UInt8(ascii: "]"))
    }

    /// A member holding an integer that is never absent.
    public mutating func count(_ key: StaticString, _ value: Int, into bytes: inout [UInt8]) {
        integer(key, Int64(value), into: &bytes)
    }

    /// A member whose value `body` writes.
    public mutating func raw(_ key: StaticString, into bytes: inout [UInt8], _ body: (inout [UInt8]) -> Void) {
        self.key(key, into: &bytes)
        body(&bytes)
    }

    private static let null: [UInt8] = Array("null".utf8)
}

/// Writes a JSON array of `elements`, each by `write`.
func writeArray<Element>(
    _ elements: some Sequence<Element>, into bytes: inout [UInt8], _ write: (Element, inout [UInt8]) -> Void
) {
    bytes.append(UInt8(ascii: "["))
    var first = true
    for element in elements {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        write(element, &bytes)
    }
    bytes.append(UInt8(ascii: "]"))
}
