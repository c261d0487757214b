/// Decodes `Decodable` types from an already parsed ``JSONValue``.
///
/// Failures are standard `DecodingError`s whose `codingPath` names the offending field, so a JSON-RPC
/// server can report e.g. "invalid params: limit: expected number, found string". Integers are
/// converted exactly from the number text, and `Date` is read from an RFC 3339 string.
public struct JSONValueDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// Decodes a value of `type` from `value`.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try JSONUnboxing.decodable(T.self, from: value, codingPath: [])
    }
}
