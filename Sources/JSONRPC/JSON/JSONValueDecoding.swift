/// The `Decoder` handed to `init(from:)` implementations, positioned at one value.
struct JSONValueDecoding: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] {
        [:]
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else {
            throw JSONUnboxing.typeMismatch([String: JSONValue].self, expected: "object", found: value, codingPath)
        }
        return KeyedDecodingContainer(JSONKeyedDecodingContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else {
            throw JSONUnboxing.typeMismatch([JSONValue].self, expected: "array", found: value, codingPath)
        }
        return JSONUnkeyedDecodingContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        JSONSingleValueDecodingContainer(value: value, codingPath: codingPath)
    }
}
