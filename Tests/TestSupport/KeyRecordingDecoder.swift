import Foundation

/// Finds the members a `Decodable` type reads, by decoding it from nothing while noting every key asked for:
/// `decode` marks a member required, `decodeIfPresent` optional. Lets a test hold a hand-written schema
/// against the type that really decodes the params.
public enum KeyRecordingDecoder {
    /// The top-level members `type` reads, with whether each is required.
    public static func members(of type: any Decodable.Type) -> [String: Bool] {
        let recorder = Recorder()
        _ = try? type.init(from: RecordingDecoder(recorder: recorder, depth: 0))
        return recorder.members
    }

    final class Recorder {
        var members: [String: Bool] = [:]
    }

    struct RecordingDecoder: Decoder {
        let recorder: Recorder
        /// 0 at the top level; nested values are decoded with defaults, their keys not recorded.
        let depth: Int
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] = [:]

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Keyed<Key>(recorder: recorder, depth: depth))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            Empty()
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            Single(decoder: RecordingDecoder(recorder: recorder, depth: depth + 1))
        }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let recorder: Recorder
        let depth: Int
        var codingPath: [any CodingKey] = []
        var allKeys: [Key] { [] }

        func note(_ key: Key, required: Bool) {
            guard depth == 0 else { return }
            recorder.members[key.stringValue] = required || (recorder.members[key.stringValue] ?? false)
        }

        func contains(_ key: Key) -> Bool {
            note(key, required: false)
            return false
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            note(key, required: false)
            return true
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            note(key, required: true)
            return try T(from: RecordingDecoder(recorder: recorder, depth: depth + 1))
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            note(key, required: false)
            return nil
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            note(key, required: true)
            return KeyedDecodingContainer(Keyed<NestedKey>(recorder: recorder, depth: depth + 1))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            note(key, required: true)
            return Empty()
        }

        func superDecoder() throws -> any Decoder { RecordingDecoder(recorder: recorder, depth: depth + 1) }
        func superDecoder(forKey key: Key) throws -> any Decoder {
            RecordingDecoder(recorder: recorder, depth: depth + 1)
        }
    }

    /// An empty array.
    struct Empty: UnkeyedDecodingContainer {
        var codingPath: [any CodingKey] = []
        var count: Int? { 0 }
        var isAtEnd: Bool { true }
        var currentIndex: Int { 0 }

        mutating func decodeNil() throws -> Bool { true }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            throw DecodingError.valueNotFound(type, .init(codingPath: [], debugDescription: "empty"))
        }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: [], debugDescription: "empty"))
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { Empty() }
        mutating func superDecoder() throws -> any Decoder {
            throw DecodingError.valueNotFound(Any.self, .init(codingPath: [], debugDescription: "empty"))
        }
    }

    /// A scalar: the simplest value of each type.
    struct Single: SingleValueDecodingContainer {
        let decoder: RecordingDecoder
        var codingPath: [any CodingKey] = []

        func decodeNil() -> Bool { false }
        func decode(_ type: Bool.Type) throws -> Bool { false }
        func decode(_ type: String.Type) throws -> String { "" }
        func decode(_ type: Double.Type) throws -> Double { 0 }
        func decode(_ type: Float.Type) throws -> Float { 0 }
        func decode(_ type: Int.Type) throws -> Int { 0 }
        func decode(_ type: Int8.Type) throws -> Int8 { 0 }
        func decode(_ type: Int16.Type) throws -> Int16 { 0 }
        func decode(_ type: Int32.Type) throws -> Int32 { 0 }
        func decode(_ type: Int64.Type) throws -> Int64 { 0 }
        func decode(_ type: UInt.Type) throws -> UInt { 0 }
        func decode(_ type: UInt8.Type) throws -> UInt8 { 0 }
        func decode(_ type: UInt16.Type) throws -> UInt16 { 0 }
        func decode(_ type: UInt32.Type) throws -> UInt32 { 0 }
        func decode(_ type: UInt64.Type) throws -> UInt64 { 0 }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: decoder) }
    }
}
