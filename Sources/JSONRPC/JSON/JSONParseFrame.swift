/// One open array or object on the parser's explicit stack.
///
/// A struct with both storages (rather than an enum with payloads) lets the scanner append through
/// `stack[top]` in place; extracting an enum payload would copy the collection on every element.
struct JSONParseFrame {
    let isObject: Bool
    var elements: [JSONValue] = []
    /// An object's members in order; hashed into a dictionary once, when the object is finished. The tuple is
    /// unlabelled because that is what `Dictionary` takes: a labelled one is converted element by element.
    var members: [(String, JSONValue)] = []
    /// The keys seen, once an object has grown past a few members; smaller objects (every request
    /// envelope) are searched linearly, which costs less than hashing each key twice.
    var keys: Set<String>?
    /// The key whose value is being parsed; only meaningful for objects.
    var pendingKey = ""

    /// Members beyond which duplicates are found through a set.
    static let linearSearchLimit = 8

    static func array() -> JSONParseFrame {
        JSONParseFrame(isObject: false)
    }

    static func object() -> JSONParseFrame {
        var frame = JSONParseFrame(isObject: true)
        // A request envelope has three or four members; growing from empty would reallocate twice.
        frame.members.reserveCapacity(4)
        return frame
    }

    /// True when the object already has `key`.
    mutating func hasKey(_ key: String) -> Bool {
        if let keys { return keys.contains(key) }
        guard members.count >= Self.linearSearchLimit else { return members.contains { $0.0 == key } }
        let indexed = Set(members.map(\.0))
        keys = indexed
        return indexed.contains(key)
    }

    /// Stores a finished child value under the pending key or at the end of the array.
    mutating func attach(_ value: JSONValue) {
        if isObject {
            members.append((pendingKey, value))
            keys?.insert(pendingKey)
        } else {
            elements.append(value)
        }
    }

    /// The finished container.
    func finish() -> JSONValue {
        // Keys were checked for duplicates as they arrived, so the first of a pair is never dropped.
        isObject ? .object(Dictionary(members, uniquingKeysWith: { first, _ in first })) : .array(elements)
    }
}
