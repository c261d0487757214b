import Foundation

/// A result that writes its own JSON, skipping `JSONEncoder`: for the hot answers (ping, tweets, pages).
///
/// The router picks this path at compile time, by overload, so the fast types cost no dynamic cast per call.
/// Writers must emit object keys sorted by UTF-8 bytes, like every other answer.
public protocol JSONWritable {
    /// Appends the value's compact JSON to `bytes`.
    func writeJSON(into bytes: inout [UInt8])

    /// The value's JSON when it is held written already (a kept page), so that the answer shares those bytes
    /// instead of copying them; nil otherwise.
    var writtenJSON: [UInt8]? { get }
}

extension JSONWritable {
    /// Not held written: the value writes its JSON.
    public var writtenJSON: [UInt8]? { nil }
}

extension String: JSONWritable {
    /// A JSON string literal.
    public func writeJSON(into bytes: inout [UInt8]) {
        JSONValue.writeString(self, into: &bytes)
    }
}

extension JSONValue: JSONWritable {
    /// The value as it is.
    public func writeJSON(into bytes: inout [UInt8]) {
        write(into: &bytes)
    }
}

extension Array: JSONWritable where Element: JSONWritable {
    /// A JSON array of the elements.
    public func writeJSON(into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "["))
        for (index, element) in enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            element.writeJSON(into: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}

/// Writes one JSON object member by member; the caller lists the keys in sorted order.
public struct JSONObjectWriter {
    private var isFirst = true

    /// Writes `{`, the members `body` adds, and `}`.
    public static func write(into bytes: inout [UInt8], _ body: (inout JSONObjectWriter, inout [UInt8]) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        var writer = JSONObjectWriter()
        body(&writer, &bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes `{` and the members `body` adds, leaving the object open: the caller appends more members and
    /// the `}` itself (a cached head of an object whose last members differ per answer).
    public static func writeOpen(into bytes: inout [UInt8], _ body: (inout JSONObjectWriter, inout [UInt8]) -> Void) {
        bytes.append(UInt8(ascii: "{"))
        var writer = JSONObjectWriter()
        body(&writer, &bytes)
    }

    /// Starts the member `key` (ASCII, no escaping needed); the value is written next.
    public mutating func key(_ key: StaticString, into bytes: inout [UInt8]) {
        if !isFirst { bytes.append(UInt8(ascii: ",")) }
        isFirst = false
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(literal: "\":")
    }

    /// A member holding an integer.
    public mutating func integer(_ key: StaticString, _ value: Int64?, into bytes: inout [UInt8]) {
        self.key(key, into: &bytes)
        if let value {
            JSONObjectWriter.writeInteger(value, into: &bytes)
        } else {
            bytes.append(literal: "null")
        }
    }

    /// A member holding a string.
    public mutating func string(_ key: StaticString, _ value: String, into bytes: inout [UInt8]) {
        self.key(key, into: &bytes)
        JSONValue.writeString(value, into: &bytes)
    }

    /// A member holding an RFC 3339 timestamp, or null.
    public mutating func timestamp(_ key: StaticString, _ value: Date?, into bytes: inout [UInt8]) {
        self.key(key, into: &bytes)
        if let value {
            bytes.append(UInt8(ascii: "\""))
            Timestamp.write(value, into: &bytes)
            bytes.append(UInt8(ascii: "\""))
        } else {
            bytes.append(literal: "null")
        }
    }

    /// A member holding true or false.
    public mutating func boolean(_ key: StaticString, _ value: Bool, into bytes: inout [UInt8]) {
        self.key(key, into: &bytes)
        bytes.append(literal: value ? "true" : "false")
    }

    /// A member holding another writable value.
    public mutating func value(_ key: StaticString, _ value: some JSONWritable, into bytes: inout [UInt8]) {
        self.key(key, into: &bytes)
        value.writeJSON(into: &bytes)
    }

    /// Appends the decimal digits of `value`.
    public static func writeInteger(_ value: Int64, into bytes: inout [UInt8]) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            if value == .min {
                bytes.append(literal: "9223372036854775808")
                return
            }
        }
        var magnitude = value.magnitude
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }
}
