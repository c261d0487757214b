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
        bytes.reserveCapacity(bytes.count + string.utf8.count + 2)
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            if let letter = shortEscape(of: byte) {
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(letter)
            } else if byte < 0x20 {
                let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(literal: "\\u00")
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            } else {
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
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
