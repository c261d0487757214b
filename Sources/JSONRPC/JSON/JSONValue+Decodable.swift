/// Lets a params type keep a member as raw JSON, to be decoded later by whoever knows its shape.
extension JSONValue: Decodable {
    /// Decodes any JSON value; `JSONValueDecoder` hands the value over directly instead.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int64.self) {
            self = .number(JSONNumber(Int(integer)))
        } else if let number = try? container.decode(Double.self), let json = JSONNumber(number) {
            self = .number(json)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let elements = try? container.decode([JSONValue].self) {
            self = .array(elements)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}
