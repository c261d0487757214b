/// Lets a handler return a ready-made JSON value as its result.
extension JSONValue: Encodable {
    /// Encodes the value through any encoder; `ResultEncoder` skips this and writes the bytes directly.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .string(let text): try container.encode(text)
        case .number(let number):
            if let integer = number.int64 {
                try container.encode(integer)
            } else {
                try container.encode(number.double ?? 0)
            }
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }
}
