import Foundation

/// Conversions from ``JSONValue`` to Swift scalars, shared by all decoding containers.
enum JSONUnboxing {
    /// Longest number or string quoted in an error; clients control these values, so messages stay bounded.
    private static let maximumQuotedLength = 40

    static func bool(_ value: JSONValue, codingPath: [any CodingKey]) throws -> Bool {
        guard case .bool(let bool) = value else {
            throw typeMismatch(Bool.self, expected: "boolean", found: value, codingPath)
        }
        return bool
    }

    static func string(_ value: JSONValue, codingPath: [any CodingKey]) throws -> String {
        guard case .string(let string) = value else {
            throw typeMismatch(String.self, expected: "string", found: value, codingPath)
        }
        return string
    }

    /// The nearest `T` (`Double` or `Float`); a magnitude that overflows to infinity does not fit.
    static func floatingPoint<T: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: JSONValue,
        as type: T.Type,
        codingPath: [any CodingKey]
    ) throws -> T {
        let number = try number(T.self, value, codingPath)
        guard let floatingPoint = T(number.text), floatingPoint.isFinite else {
            throw dataCorrupted("number \(shown(number)) does not fit in \(T.self)", codingPath)
        }
        return floatingPoint
    }

    static func integer<T: FixedWidthInteger>(
        _ value: JSONValue,
        as type: T.Type,
        codingPath: [any CodingKey]
    ) throws -> T {
        let number = try number(T.self, value, codingPath)
        if let integer = number.exactInteger(as: T.self) {
            return integer
        }
        if number.isIntegral {
            throw dataCorrupted("number \(shown(number)) does not fit in \(T.self)", codingPath)
        }
        throw dataCorrupted("expected an integer, found \(shown(number))", codingPath)
    }

    static func date(_ value: JSONValue, codingPath: [any CodingKey]) throws -> Date {
        let text = try string(value, codingPath: codingPath)
        guard let date = RFC3339DateParser.date(from: text) else {
            throw dataCorrupted("expected an RFC 3339 date, found \(shown(text))", codingPath)
        }
        return date
    }

    /// Decodes any `Decodable`, intercepting `Date` whose own `init(from:)` would expect a number.
    static func decodable<T: Decodable>(
        _ type: T.Type,
        from value: JSONValue,
        codingPath: [any CodingKey]
    ) throws -> T {
        if T.self == Date.self, let date = try date(value, codingPath: codingPath) as? T {
            return date
        }
        // A member typed as JSONValue (such as a provider's credentials) takes the value as it is.
        if let json = value as? T {
            return json
        }
        return try T(from: JSONValueDecoding(value: value, codingPath: codingPath))
    }

    static func typeMismatch(
        _ type: Any.Type,
        expected: String,
        found value: JSONValue,
        _ codingPath: [any CodingKey]
    ) -> DecodingError {
        let context = DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "expected \(expected), found \(value.typeName)"
        )
        return DecodingError.typeMismatch(type, context)
    }

    private static func number<T>(
        _ type: T.Type,
        _ value: JSONValue,
        _ codingPath: [any CodingKey]
    ) throws -> JSONNumber {
        guard case .number(let number) = value else {
            throw typeMismatch(T.self, expected: "number", found: value, codingPath)
        }
        return number
    }

    private static func dataCorrupted(_ description: String, _ codingPath: [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: description))
    }

    private static func shown(_ number: JSONNumber) -> String {
        number.text.shortenedForError(to: maximumQuotedLength)
    }

    private static func shown(_ string: String) -> String {
        string.quotedForError(shortenedTo: maximumQuotedLength)
    }
}
