extension JSONValue {
    /// Appends the compact JSON encoding of this value to `bytes`.
    ///
    /// Object keys are sorted by their UTF-8 bytes, which is the order `JSONEncoder` uses for
    /// `.sortedKeys`, so output is deterministic and comparable with Foundation's.
    public func write(into bytes: inout [UInt8]) {
        switch self {
        case .null:
            bytes.append(literal: "null")
        case .bool(let value):
            bytes.append(literal: value ? "true" : "false")
        case .number(let number):
            bytes.append(utf8: number.text)
        case .string(let string):
            Self.writeString(string, into: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 {
                    bytes.append(UInt8(ascii: ","))
                }
                element.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (position, member) in sorted.enumerated() {
                if position > 0 {
                    bytes.append(UInt8(ascii: ","))
                }
                Self.writeString(member.key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                member.value.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// The compact JSON encoding of this value as a string.
    public var serialized: String {
        var bytes: [UInt8] = []
        write(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `string` as a quoted JSON string literal to `bytes`.
    ///
    /// Only what RFC 8259 requires is escaped: `"`, `\` and control characters. `/` and non-ASCII text
    /// are written as-is (raw UTF-8), which keeps output short and readable.
    public static func writeString(_ string: String, into bytes: inout [UInt8]) {
        var string = string
        // Over the string's own UTF-8, copying each run that needs no escape at once: appended byte by byte from
        // the `utf8` view, "pong" cost a ping 305 instructions (callgrind), and a tweet's text ten times that.
        string.withUTF8 { utf8 in
            bytes.reserveCapacity(bytes.count + utf8.count + 2)
            bytes.append(UInt8(ascii: "\""))
            var run = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                    index += 1
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
                appendEscape(of: byte, into: &bytes)
                index += 1
                run = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<index]))
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// Appends the escape of `byte`, one of `"`, `\` and the control characters.
    private static func appendEscape(of byte: UInt8, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        if let letter = shortEscape(of: byte) {
            bytes.append(letter)
        } else {
            let hexDigits: StaticString = "0123456789abcdef"
            bytes.append(literal: "u00")
            hexDigits.withUTF8Buffer { hex in
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            }
        }
    }

    /// The letter that follows `\` in the two-character escape of `byte`, for the seven bytes that have one; the
    /// other control characters take `\u00XX`.
    @inline(__always)
    private static func shortEscape(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\""): UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): UInt8(ascii: "\\")
        case 0x08: UInt8(ascii: "b")
        case 0x0C: UInt8(ascii: "f")
        case 0x0A: UInt8(ascii: "n")
        case 0x0D: UInt8(ascii: "r")
        case 0x09: UInt8(ascii: "t")
        default: nil
        }
    }
}
