/// The byte-level state machine behind ``JSONParser``.
///
/// Every read is preceded by an explicit `index < bytes.count` check, so malformed or truncated input
/// always ends in a thrown error rather than an out-of-bounds access.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var index = 0

    /// Longest key quoted in a duplicate-key message; clients control keys, so messages stay bounded.
    private static let maximumQuotedKeyLength = 64

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else {
            throw JSONParseError(.empty, message: "empty input", offset: index)
        }
        let value = try parseValueTree()
        skipWhitespace()
        guard index >= bytes.count else {
            throw unexpectedCharacter(at: index, context: " after the JSON value")
        }
        return value
    }

    // MARK: - Structure

    /// Parses one value of any depth without recursion.
    ///
    /// The outer loop descends into a value; the inner loop climbs back up, attaching each finished
    /// value to its parent until some parent expects another element.
    mutating func parseValueTree() throws(JSONParseError) -> JSONValue {
        var stack: [JSONParseFrame] = []
        while true {
            var value: JSONValue
            skipWhitespace()
            guard index < bytes.count else {
                throw endOfInput()
            }
            switch bytes[index] {
            case UInt8(ascii: "["):
                if try enterContainer(closedBy: UInt8(ascii: "]"), depth: stack.count) {
                    value = .array([])
                } else {
                    stack.append(.array())
                    continue
                }
            case UInt8(ascii: "{"):
                if try enterContainer(closedBy: UInt8(ascii: "}"), depth: stack.count) {
                    value = .object([:])
                } else {
                    var frame = JSONParseFrame.object()
                    try readKey(into: &frame)
                    stack.append(frame)
                    continue
                }
            default:
                value = try parseScalar()
            }

            while let top = stack.indices.last {
                stack[top].attach(value)
                skipWhitespace()
                guard index < bytes.count else {
                    throw endOfInput()
                }
                let byte = bytes[index]
                let closer = stack[top].isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if byte == UInt8(ascii: ",") {
                    index += 1
                    if stack[top].isObject {
                        skipWhitespace()
                        try readKey(into: &stack[top])
                    }
                    break
                } else if byte == closer {
                    index += 1
                    value = stack.removeLast().finish()
                } else {
                    let expected = stack[top].isObject ? "',' or '}'" : "',' or ']'"
                    throw unexpectedCharacter(at: index, context: ", expected \(expected)")
                }
            }
            if stack.isEmpty {
                return value
            }
        }
    }

    /// Steps into the array or object opening at `index`, `depth` deep; true when `closer` follows at once, and
    /// the empty container is stepped out of too.
    @inline(__always)
    private mutating func enterContainer(closedBy closer: UInt8, depth: Int) throws(JSONParseError) -> Bool {
        try checkDepth(opened: depth)
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == closer else { return false }
        index += 1
        return true
    }

    private func checkDepth(opened depth: Int) throws(JSONParseError) {
        if depth >= maximumDepth {
            throw JSONParseError(.tooDeep, "nesting deeper than \(maximumDepth) levels", at: index)
        }
    }

    /// Reads `"key" :` and records the key as pending, rejecting duplicates as soon as they appear.
    private mutating func readKey(into frame: inout JSONParseFrame) throws(JSONParseError) {
        guard index < bytes.count else {
            throw endOfInput()
        }
        guard bytes[index] == UInt8(ascii: "\"") else {
            throw unexpectedCharacter(at: index, context: ", expected '\"' to start an object key")
        }
        let keyOffset = index
        let key = try parseString()
        // Swift compares String keys by canonical equivalence, so NFC and NFD spellings of one key also
        // count as duplicates here; rejecting them is safer than silently keeping one.
        if frame.hasKey(key) {
            let quoted = key.quotedForError(shortenedTo: Self.maximumQuotedKeyLength)
            throw JSONParseError(.duplicateKey, "duplicate key \(quoted)", at: keyOffset)
        }
        skipWhitespace()
        guard index < bytes.count else {
            throw endOfInput()
        }
        guard bytes[index] == UInt8(ascii: ":") else {
            throw unexpectedCharacter(at: index, context: ", expected ':' after an object key")
        }
        index += 1
        frame.pendingKey = key
    }

    // MARK: - Scalars

    private mutating func parseScalar() throws(JSONParseError) -> JSONValue {
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            throw unexpectedCharacter(at: index, context: "")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in expected {
            guard index < bytes.count else {
                throw endOfInput()
            }
            guard bytes[index] == byte else {
                throw unexpectedCharacter(at: index, context: "")
            }
            index += 1
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
        }
        guard index < bytes.count else {
            throw endOfInput()
        }
        let first = bytes[index]
        if first == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, Self.isDigit(bytes[index]) {
                throw JSONParseError(.syntax, "leading zeros are not allowed", at: index - 1)
            }
        } else if Self.isDigit(first) {
            skipDigits()
        } else {
            throw unexpectedCharacter(at: index, context: ", expected a digit")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            try expectDigit(after: "'.'")
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            try expectDigit(after: "the exponent marker")
            skipDigits()
        }
        // The grammar above admits only ASCII, so decoding cannot repair anything.
        return JSONNumber(validatedText: String(decoding: slice(start, index), as: UTF8.self))
    }

    private func expectDigit(after what: String) throws(JSONParseError) {
        guard index < bytes.count, Self.isDigit(bytes[index]) else {
            throw JSONParseError(.syntax, "expected a digit after \(what)", at: index)
        }
    }

    private mutating func skipDigits() {
        while index < bytes.count, Self.isDigit(bytes[index]) {
            index += 1
        }
    }

    // MARK: - Strings

    /// Parses a string starting at its opening quote.
    ///
    /// The fast path only validates and then copies the raw slice once; escapes switch to a buffer.
    mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                // The loop validated every byte, so decoding cannot substitute replacement characters.
                let string = String(decoding: slice(start, index), as: UTF8.self)
                index += 1
                return string
            } else if byte == UInt8(ascii: "\\") {
                return try parseEscapedString(from: start)
            } else if byte < 0x20 {
                throw controlCharacter(at: index)
            } else if byte < 0x80 {
                index += 1
            } else {
                index += try utf8SequenceLength(at: index)
            }
        }
        throw endOfInput()
    }

    /// Continues a string whose first escape is at `index`; `start` is just after the opening quote.
    private mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(index - start + 16)
        buffer.append(contentsOf: slice(start, index))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                try appendEscape(to: &buffer)
            } else if byte < 0x20 {
                throw controlCharacter(at: index)
            } else {
                // Copy a whole run of plain bytes at once instead of byte by byte.
                let runStart = index
                while index < bytes.count {
                    let plain = bytes[index]
                    if plain == UInt8(ascii: "\"") || plain == UInt8(ascii: "\\") || plain < 0x20 {
                        break
                    }
                    if plain < 0x80 {
                        index += 1
                    } else {
                        index += try utf8SequenceLength(at: index)
                    }
                }
                buffer.append(contentsOf: slice(runStart, index))
            }
        }
        throw endOfInput()
    }

    /// Decodes the escape sequence at `index` (a backslash) and appends its UTF-8 encoding.
    private mutating func appendEscape(to buffer: inout [UInt8]) throws(JSONParseError) {
        let escapeStart = index
        index += 1
        guard index < bytes.count else {
            throw endOfInput()
        }
        let marker = bytes[index]
        index += 1
        switch marker {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
            buffer.append(marker)
        case UInt8(ascii: "b"):
            buffer.append(0x08)
        case UInt8(ascii: "f"):
            buffer.append(0x0C)
        case UInt8(ascii: "n"):
            buffer.append(0x0A)
        case UInt8(ascii: "r"):
            buffer.append(0x0D)
        case UInt8(ascii: "t"):
            buffer.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHex4(escapeStart: escapeStart)
            let scalarValue: UInt32
            if unit >= 0xD800 && unit <= 0xDBFF {
                scalarValue = try readLowSurrogate(high: unit, escapeStart: escapeStart)
            } else if unit >= 0xDC00 && unit <= 0xDFFF {
                throw loneSurrogate(unit, at: escapeStart)
            } else {
                scalarValue = UInt32(unit)
            }
            guard let scalar = Unicode.Scalar(scalarValue) else {
                throw loneSurrogate(unit, at: escapeStart)
            }
            UTF8.encode(scalar) { buffer.append($0) }
        default:
            let shown = Self.isPrintableASCII(marker) ? "'\\\(Character(Unicode.Scalar(marker)))'" : "'\\'"
            throw JSONParseError(.syntax, "invalid escape sequence \(shown)", at: escapeStart)
        }
    }

    /// Reads the `\uXXXX` that must follow a high surrogate and combines the pair into one scalar.
    private mutating func readLowSurrogate(high: UInt16, escapeStart: Int) throws(JSONParseError) -> UInt32 {
        guard index + 1 < bytes.count,
            bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
        else {
            throw loneSurrogate(high, at: escapeStart)
        }
        let lowStart = index
        index += 2
        let low = try readHex4(escapeStart: lowStart)
        guard low >= 0xDC00 && low <= 0xDFFF else {
            throw loneSurrogate(high, at: escapeStart)
        }
        return 0x10000 + ((UInt32(high) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
    }

    /// Reads the four hex digits after `\u`.
    private mutating func readHex4(escapeStart: Int) throws(JSONParseError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count else {
                throw endOfInput()
            }
            let byte = bytes[index]
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                nibble = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"):
                nibble = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"):
                nibble = byte - UInt8(ascii: "A") + 10
            default:
                throw JSONParseError(.syntax, "invalid \\u escape, expected 4 hex digits", at: escapeStart)
            }
            unit = unit << 4 | UInt16(nibble)
            index += 1
        }
        return unit
    }

    // MARK: - UTF-8

    /// The length of the well-formed UTF-8 sequence at `offset`, per Unicode Table 3-7.
    ///
    /// Rejects overlongs, UTF-8-encoded surrogates, code points above U+10FFFF, truncated sequences
    /// and stray continuation bytes.
    private func utf8SequenceLength(at offset: Int) throws(JSONParseError) -> Int {
        if let length = validUTF8Length(at: offset) {
            return length
        }
        throw JSONParseError(.invalidUTF8, "invalid UTF-8", at: offset)
    }

    private func validUTF8Length(at offset: Int) -> Int? {
        let lead = bytes[offset]
        switch lead {
        case 0x00...0x7F:
            return 1
        case 0xC2...0xDF:
            return continuation(offset + 1) ? 2 : nil
        case 0xE0:
            return continuation(offset + 1, 0xA0, 0xBF) && continuation(offset + 2) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(offset + 1) && continuation(offset + 2) ? 3 : nil
        case 0xED:
            return continuation(offset + 1, 0x80, 0x9F) && continuation(offset + 2) ? 3 : nil
        case 0xF0:
            let valid = continuation(offset + 1, 0x90, 0xBF) && continuation(offset + 2) && continuation(offset + 3)
            return valid ? 4 : nil
        case 0xF1...0xF3:
            let valid = continuation(offset + 1) && continuation(offset + 2) && continuation(offset + 3)
            return valid ? 4 : nil
        case 0xF4:
            let valid = continuation(offset + 1, 0x80, 0x8F) && continuation(offset + 2) && continuation(offset + 3)
            return valid ? 4 : nil
        default:
            return nil
        }
    }

    private func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
        offset < bytes.count && bytes[offset] >= low && bytes[offset] <= high
    }

    // MARK: - Helpers

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                index += 1
            default:
                return
            }
        }
    }

    private func slice(_ start: Int, _ end: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isPrintableASCII(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F
    }

    private func endOfInput() -> JSONParseError {
        JSONParseError(.syntax, message: "unexpected end of input", offset: bytes.count)
    }

    private func controlCharacter(at offset: Int) -> JSONParseError {
        JSONParseError(.syntax, "unescaped control character \(Self.codePoint(bytes[offset])) in string", at: offset)
    }

    private func loneSurrogate(_ unit: UInt16, at offset: Int) -> JSONParseError {
        let hex = String(unit, radix: 16)
        return JSONParseError(.syntax, "lone surrogate \\u\(hex)", at: offset)
    }

    /// Describes the byte at `offset` for an error; invalid UTF-8 there is reported as such instead.
    private func unexpectedCharacter(at offset: Int, context: String) -> JSONParseError {
        let byte = bytes[offset]
        let shown: String
        if Self.isPrintableASCII(byte) {
            shown = "'\(Character(Unicode.Scalar(byte)))'"
        } else if byte < 0x80 {
            shown = Self.codePoint(byte)
        } else if let length = validUTF8Length(at: offset) {
            let character = String(decoding: slice(offset, offset + length), as: UTF8.self)
            shown = "'\(character)'"
        } else {
            return JSONParseError(.invalidUTF8, "invalid UTF-8", at: offset)
        }
        return JSONParseError(.syntax, "unexpected character \(shown)\(context)", at: offset)
    }

    /// An ASCII byte as its code point, `U+001F`.
    private static func codePoint(_ byte: UInt8) -> String {
        let code = String(byte, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: 4 - code.count) + code
    }
}
