/// A parsed JSON value, kept close to the source text so that it can be echoed back faithfully.
///
/// Numbers keep their exact source text (see ``JSONNumber``) because JSON-RPC ids such as `1.50`
/// must be returned byte-for-byte as the client sent them.
public enum JSONValue: Sendable, Hashable {
    /// The JSON literal `null`.
    case null
    /// The JSON literals `true` and `false`.
    case bool(Bool)
    /// A JSON number, stored as its validated source text.
    case number(JSONNumber)
    /// A JSON string, already unescaped.
    case string(String)
    /// A JSON array.
    case array([JSONValue])
    /// A JSON object; keys are unique because the parser rejects duplicates.
    case object([String: JSONValue])

    /// The member named `key`, or `nil` when this is not an object or has no such member.
    /// The element at `index` of an array; nil when this is not an array or the index is out of range.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The member `key` of an object; nil when this is not an object or has no such member.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else {
            return nil
        }
        return members[key]
    }

    /// The JSON type name of this value, for error messages such as "expected string, found number".
    ///
    /// Integers are reported as "number": JSON has no separate integer type.
    public var typeName: String {
        switch self {
        case .null:
            return "null"
        case .bool:
            return "boolean"
        case .number:
            return "number"
        case .string:
            return "string"
        case .array:
            return "array"
        case .object:
            return "object"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// Creates a string value from a string literal.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// Creates a number value from an integer literal.
    public init(integerLiteral value: Int) {
        self = .number(JSONNumber(value))
    }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// Creates a number value from a floating-point literal.
    ///
    /// A literal can only be non-finite if it overflows, which the compiler already warns about;
    /// `null` is the JSON convention for such values and avoids trapping.
    public init(floatLiteral value: Double) {
        if let number = JSONNumber(value) {
            self = .number(number)
        } else {
            self = .null
        }
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// Creates a boolean value from a boolean literal.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// Creates an array value from an array literal.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates an object value from a dictionary literal; a repeated key keeps its last value.
    ///
    /// `Dictionary(uniqueKeysWithValues:)` would trap on a repeated key, which builders must never do.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue: ExpressibleByNilLiteral {
    /// Creates the `null` value from the `nil` literal.
    public init(nilLiteral: ()) {
        self = .null
    }
}
