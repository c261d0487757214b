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
    /// returns formats exactly like what a later read finds. postgres-nio truncates toward PostgreSQL's epoch
    /// (2000-01-01), so before it the half microsecond is taken off instead: added, it would be stored as one
    /// whole microsecond more (a throttle's wait of 1 s would read as 1.000001 s and round up to 2).
    var storagePrecision: Date {
        let milliseconds = (timeIntervalSince1970 * 1000).rounded(.down) / 1000
        return Date(timeIntervalSince1970: milliseconds + (milliseconds < 946_684_800 ? -0.000_000_5 : 0.000_000_5))
    }
}
