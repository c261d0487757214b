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

    func decode(_ type: Double.Type) throws -> Double {
        try JSONUnboxing.double(value, codingPath: codingPath)
    }

    func decode(_ type: Float.Type) throws -> Float {
        try JSONUnboxing.float(value, codingPath: codingPath)
    }

    func decode(_ type: Int.Type) throws -> Int {
        try integer()
    }

    func decode(_ type: Int8.Type) throws -> Int8 {
        try integer()
    }

    func decode(_ type: Int16.Type) throws -> Int16 {
        try integer()
    }

    func decode(_ type: Int32.Type) throws -> Int32 {
        try integer()
    }

    func decode(_ type: Int64.Type) throws -> Int64 {
        try integer()
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type) throws -> Int128 {
        try integer()
    }

    func decode(_ type: UInt.Type) throws -> UInt {
        try integer()
    }

    func decode(_ type: UInt8.Type) throws -> UInt8 {
        try integer()
    }

    func decode(_ type: UInt16.Type) throws -> UInt16 {
        try integer()
    }

    func decode(_ type: UInt32.Type) throws -> UInt32 {
        try integer()
    }

    func decode(_ type: UInt64.Type) throws -> UInt64 {
        try integer()
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 {
        try integer()
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONUnboxing.decodable(T.self, from: value, codingPath: codingPath)
    }

    private func integer<T: FixedWidthInteger>() throws -> T {
        try JSONUnboxing.integer(value, as: T.self, codingPath: codingPath)
    }
}
