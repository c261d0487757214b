import TOMLKit
import TwitterCore

/// Typed access to one TOML table that remembers which keys were read, so the rest can be reported unknown.
struct TOMLReader {
    let table: TOMLTable
    let prefix: String
    private var readKeys: Set<String> = []

    init(table: TOMLTable, prefix: String) {
        self.table = table
        self.prefix = prefix
    }

    mutating func string(_ key: String) throws(ConfigurationError) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.string else { throw wrongType(key, expected: "a string", found: value) }
        return text
    }

    /// An integer within `range`; the range is checked by the same validator library as requests.
    mutating func int(_ key: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
        guard let value = value(key) else { return nil }
        guard let number = value.int else { throw wrongType(key, expected: "an integer", found: value) }
        let rule = Validator<Int>.range(range, "must be between \(range.lowerBound) and \(range.upperBound)")
        if let failure = rule.failures(for: number).first {
            throw ConfigurationError(key: prefix + key, problem: "\(failure.message), not \(number)")
        }
        return number
    }

    mutating func stringArray(_ key: String) throws(ConfigurationError) -> [String]? {
        guard let value = value(key) else { return nil }
        guard let array = value.array else { throw wrongType(key, expected: "an array of strings", found: value) }
        var strings: [String] = []
        for element in array {
            guard let text = element.string else { throw wrongType(key, expected: "an array of strings", found: value) }
            strings.append(text)
        }
        return strings
    }

    mutating func table(_ key: String) throws(ConfigurationError) -> TOMLReader? {
        guard let value = value(key) else { return nil }
        guard let nested = value.table else { throw wrongType(key, expected: "a table", found: value) }
        return TOMLReader(table: nested, prefix: prefix + key + ".")
    }

    /// Whether `key` holds a table (and not, say, a string).
    func isTable(_ key: String) -> Bool {
        table[key]?.table != nil
    }

    func rejectUnknownKeys() throws(ConfigurationError) {
        for key in table.keys.sorted() where !readKeys.contains(key) {
            throw ConfigurationError(key: prefix + key, problem: "unknown key")
        }
    }

    private mutating func value(_ key: String) -> TOMLValueConvertible? {
        readKeys.insert(key)
        return table[key]
    }

    private func wrongType(_ key: String, expected: String, found: TOMLValueConvertible) -> ConfigurationError {
        ConfigurationError(key: prefix + key, problem: "must be \(expected), found \(found.type)")
    }
}
