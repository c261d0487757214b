/// An optional member that the protocol writes as `null` when it has no value, never leaving the key out, so a
/// client can tell "none" from "not sent by this version": `nextCursor` at the end of a page, a conversation's
/// `lastMessage`, a token's `expiresAt`. Reading, a missing key and a `null` are both nil.
///
/// Swift's synthesized `Encodable` leaves a nil optional out; this wrapper is the one home of the other rule,
/// instead of a hand-written `encode(to:)` listing every member of each type that follows it.
@propertyWrapper
public struct NullWhenAbsent<Value: Codable & Sendable>: Codable, Sendable {
    /// The member's value.
    public var wrappedValue: Value?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    /// Writes the value, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }

    /// Reads the value; `null` is nil.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}

extension NullWhenAbsent: Equatable where Value: Equatable {}
extension NullWhenAbsent: Hashable where Value: Hashable {}

extension KeyedDecodingContainer {
    /// Reads a `NullWhenAbsent` member whose key may be missing, as a plain optional's is.
    public func decode<Value>(_ type: NullWhenAbsent<Value>.Type, forKey key: Key) throws -> NullWhenAbsent<Value> {
        try decodeIfPresent(type, forKey: key) ?? NullWhenAbsent(wrappedValue: nil)
    }
}
