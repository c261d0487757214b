/// Reads the elements of a JSON array in order.
struct JSONUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

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

    mutating func decode(_ type: Double.Type) throws -> Double {
        try next { try JSONUnboxing.double($0, codingPath: $1) }
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        try next { try JSONUnboxing.float($0, codingPath: $1) }
    }

    mutating func decode(_ type: Int.Type) throws -> Int {
        try nextInteger()
    }

    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        try nextInteger()
    }

    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        try nextInteger()
    }

    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        try nextInteger()
    }

    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        try nextInteger()
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: Int128.Type) throws -> Int128 {
        try nextInteger()
    }

    mutating func decode(_ type: UInt.Type) throws -> UInt {
        try nextInteger()
    }

    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        try nextInteger()
    }

    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        try nextInteger()
    }

    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        try nextInteger()
    }

    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        try nextInteger()
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 {
        try nextInteger()
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

    private mutating func nextInteger<T: FixedWidthInteger>() throws -> T {
        try next { try JSONUnboxing.integer($0, as: T.self, codingPath: $1) }
    }
}
