/// A request id as the client sent it: a string, a number (kept as its exact text) or null.
public enum RPCID: Sendable, Hashable {
    case string(String)
    case number(JSONNumber)
    case null

    /// Reads an id from a request member; nil when the value is not a valid id type.
    public init?(_ value: JSONValue) {
        switch value {
        case .string(let text): self = .string(text)
        case .number(let number): self = .number(number)
        case .null: self = .null
        default: return nil
        }
    }

    /// The id as a JSON value, for echoing it back exactly.
    public var jsonValue: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .number(let number): .number(number)
        case .null: .null
        }
    }
}
