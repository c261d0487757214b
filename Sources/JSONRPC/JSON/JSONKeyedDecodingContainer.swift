/// Reads the members of a JSON object by key.
struct JSONKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    /// The object's keys that `Key` can represent, in UTF-8 order so iteration is deterministic.
    var allKeys: [Key] {
        members.keys
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .compactMap { Key(stringValue: $0) }
    }

    func contains(_ key: Key) -> Bool {
        members[key.stringValue] != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try value(for: key) == .null
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try JSONUnboxing.bool(value(for: key), codingPath: path(key))
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try JSONUnboxing.string(value(for: key), codingPath: path(key))
    }

    /// Every integer type's requirement, `Int` to `UInt64`, met by one generic method.
    func decode<T: FixedWidthInteger & Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try JSONUnboxing.integer(value(for: key), as: T.self, codingPath: path(key))
    }

    /// Named apart: the standard library meets the 128-bit requirements itself (refusing the type), and a
    /// conformer's generic method does not take the place of a default.
    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
        try JSONUnboxing.integer(value(for: key), as: Int128.self, codingPath: path(key))
    }

    @available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
        try JSONUnboxing.integer(value(for: key), as: UInt128.self, codingPath: path(key))
    }

    /// `Double`'s and `Float`'s requirements, met by one generic method.
    func decode<T: BinaryFloatingPoint & LosslessStringConvertible & Decodable>(
        _ type: T.Type,
        forKey key: Key
    ) throws -> T {
        try JSONUnboxing.floatingPoint(value(for: key), as: T.self, codingPath: path(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try JSONUnboxing.decodable(T.self, from: value(for: key), codingPath: path(key))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try JSONValueDecoding(value: value(for: key), codingPath: path(key)).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try JSONValueDecoding(value: value(for: key), codingPath: path(key)).unkeyedContainer()
    }

    /// A missing "super" member decodes as `null`, matching Foundation's `JSONDecoder`.
    func superDecoder() throws -> any Decoder {
        JSONValueDecoding(value: members["super"] ?? .null, codingPath: codingPath + [JSONCodingKey.superKey])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONValueDecoding(value: members[key.stringValue] ?? .null, codingPath: path(key))
    }

    private func value(for key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            let context = DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "missing key \"\(key.stringValue)\""
            )
            throw DecodingError.keyNotFound(key, context)
        }
        return value
    }

    private func path(_ key: Key) -> [any CodingKey] {
        codingPath + [key]
    }
}
