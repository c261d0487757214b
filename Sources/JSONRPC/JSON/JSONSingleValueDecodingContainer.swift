/// Reads a single value, as used by `Optional`, `RawRepresentable` enums and custom `init(from:)`.
struct JSONSingleValueDecodingContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        value == .null
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        try JSONUnboxing.bool(value, codingPath: codingPath)
    }

    func decode(_ type: String.Type) throws -> String {
        try JSONUnboxing.string(value, codingPath: codingPath)
    }

    /// Every integer type's requirement, `Int` to `UInt64`, met by one generic method.
    func decode<T: FixedWidthInteger & Decodable>(_ type: T.Type) throws -> T {
        try JSONUnboxing.integer(value, as: T.self, codingPath: codingPath)
    }

    /// Named apart: the standard library meets the 128-bit requirements itself (refusing the type), and a
    /// conformer's generic method does not take the place of a default.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 {
        try JSONUnboxing.integer(value, as: Int128.self, codingPath: codingPath)
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 {
        try JSONUnboxing.integer(value, as: UInt128.self, codingPath: codingPath)
    }

    /// `Double`'s and `Float`'s requirements, met by one generic method.
    func decode<T: BinaryFloatingPoint & LosslessStringConvertible & Decodable>(_ type: T.Type) throws -> T {
        try JSONUnboxing.floatingPoint(value, as: T.self, codingPath: codingPath)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONUnboxing.decodable(T.self, from: value, codingPath: codingPath)
    }
}
