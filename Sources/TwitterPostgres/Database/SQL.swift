import Foundation
import PostgresNIO

/// A query put together from parts (conditions that depend on the request), each value a bound parameter:
/// `bind` appends the value and returns its placeholder to write into the text.
struct SQL {
    private(set) var text: String
    private(set) var binds = PostgresBindings()

    init(_ text: String = "") {
        self.text = text
    }

    /// Appends `part` to the text.
    mutating func append(_ part: String) {
        text += part
    }

    /// Binds `value` and returns its placeholder (`$1`, `$2`, …).
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    /// Binds `value`, NULL when nil, and returns its placeholder.
    mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value?) -> String {
        binds.append(value)
        return "$\(binds.count)"
    }

    /// The query to run.
    var query: PostgresQuery { PostgresQuery(unsafeSQL: text, binds: binds) }
}

extension Date {
    /// Timestamps are kept to the millisecond, as the SQLite store keeps them, so both backends answer alike
    /// (PostgreSQL keeps microseconds). Half a microsecond is added because postgres-nio truncates to the
    /// microsecond: binary rounding cannot then push the stored value below the millisecond, and what a write
    /// returns formats exactly like what a later read finds.
    var storagePrecision: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded(.down) / 1000 + 0.000_000_5)
    }
}
