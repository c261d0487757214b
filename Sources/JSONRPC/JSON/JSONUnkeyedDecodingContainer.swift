/// Reads the elements of a JSON array in order.
struct JSONUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    var count: Int? {
        elements.count
    }

    var isAtEnd: Bool {
        currentIndex >= elements.count
    }

    /// Does not advance past a non-null element, so the caller can still decode it.
    mutating func decodeNil() throws -> Bool {
        let value = try current(Any?.self)
        if value == .null {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        try next { try JSONUnboxing.bool($0, codingPath: $1) }
    }

    mutating func decode(_ type: String.Type) throws -> String {
        try next { try JSONUnboxing.string($0, codingPath: $1) }
    }

    /// Every integer type's requirement, `Int` to `UInt64`, met by one generic method.
    mutating func decode<T: FixedWidthInteger & Decodable>(_ type: T.Type) throws -> T {
        try next { try JSONUnboxing.integer($0, as: T.self, codingPath: $1) }
    }

    /// Named apart: the standard library meets the 128-bit requirements itself (refusing the type), and a
    /// conformer's generic method does not take the place of a default.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 {
        try next { try JSONUnboxing.integer($0, as: Int128.self, codingPath: $1) }
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 {
        try next { try JSONUnboxing.integer($0, as: UInt128.self, codingPath: $1) }
    }

    /// `Double`'s and `Float`'s requirements, met by one generic method.
    mutating func decode<T: BinaryFloatingPoint & LosslessStringConvertible & Decodable>(_ type: T.Type) throws -> T {
        try next { try JSONUnboxing.floatingPoint($0, as: T.self, codingPath: $1) }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next { try JSONUnboxing.decodable(T.self, from: $0, codingPath: $1) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next { try JSONValueDecoding(value: $0, codingPath: $1).container(keyedBy: NestedKey.self) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next { try JSONValueDecoding(value: $0, codingPath: $1).unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next { JSONValueDecoding(value: $0, codingPath: $1) }
    }

    /// The element at `currentIndex`, or `valueNotFound` when the array is exhausted.
    private func current<T>(_ type: T.Type) throws -> JSONValue {
        guard currentIndex < elements.count else {
            let context = DecodingError.Context(
                codingPath: codingPath + [JSONCodingKey(index: currentIndex)],
                debugDescription: "array has only \(elements.count) elements"
            )
            throw DecodingError.valueNotFound(T.self, context)
        }
        return elements[currentIndex]
    }

    /// Decodes the current element and advances only on success, as `UnkeyedDecodingContainer` requires.
    private mutating func next<T>(_ body: (JSONValue, [any CodingKey]) throws -> T) throws -> T {
        let value = try current(T.self)
        let result = try body(value, codingPath + [JSONCodingKey(index: currentIndex)])
        currentIndex += 1
        return result
    }
}
