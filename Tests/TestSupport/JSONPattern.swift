import JSONRPC

/// Structural JSON comparison where an expected string "…" matches any value: for answers that hold times,
/// versions or generated ids.
public enum JSONPattern {
    /// True when `actual` has the shape and values of `expected`, "…" matching anything.
    public static func matches(_ actual: JSONValue, _ expected: JSONValue) -> Bool {
        switch (actual, expected) {
        case (_, .string("…")):
            return true
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { matches($0, $1) }
        case (.object(let left), .object(let right)):
            return left.keys.sorted() == right.keys.sorted()
                && right.allSatisfy { key, value in left[key].map { matches($0, value) } ?? false }
        case (.number(let left), .number(let right)):
            return left.text == right.text || (left.double != nil && left.double == right.double)
        default:
            return actual == expected
        }
    }
}
