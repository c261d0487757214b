import Foundation

/// Encodes a value straight into a `JSONValue`, as `ResultEncoder` and `JSONParser` together would make it
/// (dates as RFC 3339 UTC strings, nil optionals left out as synthesized `Encodable` leaves them), without
/// writing JSON text only to read it back.
///
/// How another transport hands typed params to the one request layer (`RequestProcessor.encodedCall`): the round
/// trip through Foundation's `JSONEncoder` and the parser was 11 % of `GET /api/v1/timelines/home`'s samples
/// (perf at 244c6f4, docs/BENCHMARKS.md). The layer still checks and decodes the value as it does a JSON-RPC
/// line's. `JSONValueEncoderTests` holds the two ways equal.
public enum JSONValueEncoder {
    /// `value` as a JSON value.
    public static func encode(_ value: some Encodable) throws -> JSONValue {
        let node = Node()
        try node.encode(value, codingPath: [])
        return node.resolved
    }

    /// One value under construction: a scalar, an object's members or an array's elements, filled in by the
    /// containers that share it.
    fileprivate final class Node {
        var value: JSONValue?
        var members: [String: Node]?
        var elements: [Node]?

        var resolved: JSONValue {
            if let members { return .object(members.mapValues(\.resolved)) }
            if let elements { return .array(elements.map(\.resolved)) }
            // A value that encoded nothing is an empty object, as JSONEncoder writes it.
            return value ?? .object([:])
        }

        func encode(_ value: some Encodable, codingPath: [any CodingKey]) throws {
            switch value {
            case let json as JSONValue: self.value = json
            case let date as Date: self.value = .string(Timestamp.string(from: date))
            case let text as String: self.value = .string(text)
            case let flag as Bool: self.value = .bool(flag)
            // Every other integer and floating type, which the containers' default methods hand here as a
            // generic value: written as its own, never asked to encode itself into this encoder again.
            case let integer as any BinaryInteger: self.value = .number(JSONNumber(validatedText: "\(integer)"))
            case let double as Double: self.value = try JSONValueEncoder.number(double, codingPath)
            case let float as Float: self.value = try JSONValueEncoder.number(Double(float), codingPath)
            default: try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
            }
        }

        func child(_ key: String) -> Node {
            let node = Node()
            members = members ?? [:]
            members?[key] = node
            return node
        }

        func appended() -> Node {
            let node = Node()
            elements = elements ?? []
            elements?.append(node)
            return node
        }
    }

    private struct NodeEncoder: Encoder {
        let node: Node
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if node.members == nil { node.members = [:] }
            return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if node.elements == nil { node.elements = [] }
            return UnkeyedNodeContainer(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            SingleNodeContainer(node: node, codingPath: codingPath)
        }
    }

    private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil(forKey key: Key) throws { node.child(key.stringValue).value = .null }
        mutating func encode(_ value: Bool, forKey key: Key) throws { node.child(key.stringValue).value = .bool(value) }
        mutating func encode(_ value: String, forKey key: Key) throws {
            node.child(key.stringValue).value = .string(value)
        }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            node.child(key.stringValue).value = try number(value, codingPath + [key])
        }
        mutating func encode(_ value: Int, forKey key: Key) throws {
            node.child(key.stringValue).value = .number(JSONNumber(value))
        }
        mutating func encode(_ value: Int64, forKey key: Key) throws {
            node.child(key.stringValue).value = .number(JSONNumber(Int(value)))
        }
        mutating func encode(_ value: some Encodable, forKey key: Key) throws {
            try node.child(key.stringValue).encode(value, codingPath: codingPath + [key])
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            NodeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            NodeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            NodeEncoder(node: node.child("super"), codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            NodeEncoder(node: node.child(key.stringValue), codingPath: codingPath + [key])
        }
    }

    private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int { node.elements?.count ?? 0 }

        mutating func encodeNil() throws { node.appended().value = .null }
        mutating func encode(_ value: Bool) throws { node.appended().value = .bool(value) }
        mutating func encode(_ value: String) throws { node.appended().value = .string(value) }
        mutating func encode(_ value: Double) throws { node.appended().value = try number(value, codingPath) }
        mutating func encode(_ value: Int) throws { node.appended().value = .number(JSONNumber(value)) }
        mutating func encode(_ value: Int64) throws { node.appended().value = .number(JSONNumber(Int(value))) }
        mutating func encode(_ value: some Encodable) throws {
            try node.appended().encode(value, codingPath: codingPath)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            NodeEncoder(node: node.appended(), codingPath: codingPath).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            NodeEncoder(node: node.appended(), codingPath: codingPath).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.appended(), codingPath: codingPath) }
    }

    private struct SingleNodeContainer: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.value = .null }
        mutating func encode(_ value: Bool) throws { node.value = .bool(value) }
        mutating func encode(_ value: String) throws { node.value = .string(value) }
        mutating func encode(_ value: Double) throws { node.value = try number(value, codingPath) }
        mutating func encode(_ value: Int) throws { node.value = .number(JSONNumber(value)) }
        mutating func encode(_ value: Int64) throws { node.value = .number(JSONNumber(Int(value))) }
        mutating func encode(_ value: some Encodable) throws { try node.encode(value, codingPath: codingPath) }
    }

    /// A finite number; NaN and infinity have no JSON, and JSONEncoder refuses them too.
    fileprivate static func number(_ value: Double, _ codingPath: [any CodingKey]) throws -> JSONValue {
        guard let number = JSONNumber(value) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath, debugDescription: "\(value) is not a JSON number"))
        }
        return .number(number)
    }
}
