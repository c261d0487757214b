/// A request's params, from its query string and its body alike, whatever the body's encoding (form, multipart,
/// JSON): every value as text, in order, an array's (`types[]=a&types[]=b`, a JSON array) under its key without
/// the brackets.
public struct MastodonParams: Sendable, Equatable {
    /// Each key's values, in the order they came.
    public var values: [String: [String]]

    /// Params with `values`.
    public init(_ values: [String: [String]] = [:]) {
        self.values = values
    }

    /// The first value of `key`, if any.
    public func string(_ key: String) -> String? {
        values[key]?.first
    }

    /// Every value of `key`.
    public func strings(_ key: String) -> [String] {
        values[key] ?? []
    }

    /// `key` as a boolean: `true`/`1`/`on` and `false`/`0`/`off` (forms send "1" and "0", JSON `true`); nil when
    /// absent or empty; anything else is 422.
    public func bool(_ key: String) throws(MastodonError) -> Bool? {
        guard let text = string(key), !text.isEmpty else { return nil }
        switch text.lowercased() {
        case "true", "1", "on", "yes": return true
        case "false", "0", "off", "no": return false
        default: throw MastodonError.unprocessable("\(key) must be true or false")
        }
    }

    /// `key` as a whole number; nil when absent or empty; anything else is 422.
    public func int(_ key: String) throws(MastodonError) -> Int? {
        guard let text = string(key), !text.isEmpty else { return nil }
        guard let number = Int(text) else { throw MastodonError.unprocessable("\(key) must be a whole number") }
        return number
    }
}
