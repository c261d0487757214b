extension JSONScanner {
    /// The members a request envelope may have, as bits of a mask of those seen.
    private enum EnvelopeMember: UInt8 {
        case jsonrpc = 1
        case method = 2
        case id = 4
        case params = 8
    }

    /// Reads the usual request line, `{"jsonrpc":"2.0","method":…,"id":…,"params":…}` in any order, straight
    /// into a request: no tree for the envelope, no dictionary, no key strings. Every value is read by the
    /// same code as a full parse, so what it accepts it reads exactly as `JSONParser` and
    /// `RPCRequest.validate` would.
    ///
    /// Anything else gives nil and takes the full path, which then finds the precise answer or error: other
    /// members, an escaped or repeated key, a batch, a null or non-scalar id, a wrong envelope, bad JSON.
    mutating func scanEnvelope() -> RPCRequest? {
        guard maximumDepth >= 1 else { return nil }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        skipWhitespace()
        var seen: UInt8 = 0
        var hasVersion = false
        var method: String?
        var id: RPCID?
        var params: JSONValue?
        while true {
            guard let member = readEnvelopeKey(), seen & member.rawValue == 0 else { return nil }
            seen |= member.rawValue
            skipWhitespace()
            guard index < bytes.count else { return nil }
            let first = bytes[index]
            do {
                switch member {
                case .jsonrpc:
                    // Compared as bytes: no string is made for it. An escaped spelling of "2.0" takes the full path.
                    guard readLiteral(#""2.0""#) else { return nil }
                    hasVersion = true
                case .method:
                    guard first == UInt8(ascii: "\"") else { return nil }
                    method = try parseString()
                case .id:
                    if first == UInt8(ascii: "\"") {
                        id = .string(try parseString())
                    } else if first == UInt8(ascii: "-") || Self.isDigit(first) {
                        id = .number(try parseNumber())
                    } else {
                        return nil
                    }
                case .params:
                    guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return nil }
                    params = try parseNestedValue()
                }
            } catch {
                return nil
            }
            skipWhitespace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                break
            }
            guard bytes[index] == UInt8(ascii: ",") else { return nil }
            index += 1
            skipWhitespace()
        }
        skipWhitespace()
        guard index == bytes.count, hasVersion, let method else { return nil }
        return RPCRequest(id: id, method: method, params: params)
    }

    /// Reads `"name":` for one of the four envelope members; nil for any other key or an escaped one.
    ///
    /// The key's first letter tells which member it can be, so the key is compared, not scanned for its closing
    /// quote first: scanning cost a ping 130 instructions a key (callgrind).
    private mutating func readEnvelopeKey() -> EnvelopeMember? {
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        let member: EnvelopeMember
        let name: StaticString
        switch bytes[start] {
        case UInt8(ascii: "i"): (member, name) = (.id, #"id""#)
        case UInt8(ascii: "m"): (member, name) = (.method, #"method""#)
        case UInt8(ascii: "p"): (member, name) = (.params, #"params""#)
        case UInt8(ascii: "j"): (member, name) = (.jsonrpc, #"jsonrpc""#)
        default: return nil
        }
        index = start
        // The name with its closing quote: a longer key, or one with an escape, is not it.
        guard readLiteral(name) else { return nil }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
        index += 1
        return member
    }

    /// Reads `literal` at the cursor, if it is there.
    private mutating func readLiteral(_ literal: StaticString) -> Bool {
        guard index + literal.utf8CodeUnitCount <= bytes.count, keyMatches(literal, at: index) else { return false }
        index += literal.utf8CodeUnitCount
        return true
    }

    /// True when the bytes starting at `start`, already known to be at least as many as in `name`, are `name`.
    private func keyMatches(_ name: StaticString, at start: Int) -> Bool {
        name.withUTF8Buffer { name in
            name.indices.allSatisfy { name[$0] == bytes[start + $0] }
        }
    }

    /// Parses the value at the cursor as a member of the envelope: one level deeper than a whole document.
    private mutating func parseNestedValue() throws(JSONParseError) -> JSONValue {
        var nested = JSONScanner(bytes: UnsafeBufferPointer(rebasing: bytes[index...]), maximumDepth: maximumDepth - 1)
        let value = try nested.parseValueTree()
        index += nested.index
        return value
    }
}
