/// One open array or object on the parser's explicit stack.
///
/// A struct with both storages (rather than an enum with payloads) lets the scanner append through
/// `stack[top]` in place; extracting an enum payload would copy the collection on every element.
struct JSONParseFrame {
    let isObject: Bool
    var elements: [JSONValue] = []
    var members: [String: JSONValue] = [:]
    /// The key whose value is being parsed; only meaningful for objects.
    var pendingKey = ""

    static func array() -> JSONParseFrame {
        JSONParseFrame(isObject: false)
    }

    static func object() -> JSONParseFrame {
        JSONParseFrame(isObject: true)
    }

    /// Stores a finished child value under the pending key or at the end of the array.
    mutating func attach(_ value: JSONValue) {
        if isObject {
            let key = pendingKey
            members[key] = value
        } else {
            elements.append(value)
        }
    }

    /// The finished container.
    func finish() -> JSONValue {
        isObject ? .object(members) : .array(elements)
    }
}
