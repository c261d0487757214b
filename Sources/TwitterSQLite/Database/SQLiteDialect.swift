import Foundation
import TwitterSQL

/// SQLite's spelling of the stores' statements: numbered `?n` placeholders without casts (a column keeps any
/// value), an array bound as JSON text and read back with `json_each`, `max`/`min`/`group_concat` for the
/// functions PostgreSQL names otherwise, and no row locks, SQLite's one writer excluding every other.
public struct SQLiteDialect: SQLDialect {
    /// The dialect.
    public init() {}

    /// `?n`: numbered, so a value used twice is bound once.
    public func placeholder(_ index: Int) -> String {
        "?" + String(index)
    }

    /// Nothing: SQLite keeps any value in any column.
    public func cast(_ type: SQLType) -> String {
        ""
    }

    /// Membership in the JSON array bound at `placeholder` (`SQLValue.databaseValue` writes arrays as JSON).
    public func membership(in placeholder: String) -> String {
        "IN (SELECT value FROM json_each(" + placeholder + "))"
    }

    /// SQLite's many-argument `max` and `min`, and `group_concat`.
    public func name(of function: SQLFunction) -> String {
        switch function {
        case .greatest: "max"
        case .least: "min"
        case .stringAggregate: "group_concat"
        }
    }

    /// Nothing: SQLite's one writer already excludes every other.
    public func clause(_ lock: SQLRowLock) -> String {
        ""
    }

    /// SQLite's unary plus, which keeps its planner walking a timeline newest first rather than fetching every
    /// tweet of every followed author through the author index and sorting them.
    public func unindexed(_ column: String) -> String {
        "+" + column
    }

    /// `date` to the millisecond as GRDB writes it, plus 50 µs, so that binary rounding cannot push the stored
    /// value below the millisecond.
    public func stored(_ date: Date) -> Date {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000
        return Date(timeIntervalSince1970: milliseconds + 0.000_05)
    }

    /// None: the one writer already excludes every other.
    public func keyLock(_ space: Int32, _ key: String) -> SQLQuery? {
        nil
    }

    /// No: sends are delivered from memory, never logged.
    public var keepsCommitLog: Bool { false }

    /// The names GRDB's migrations have declared (so a column reads alike whichever wrote it); a date is kept as
    /// GRDB's text, "YYYY-MM-DD HH:MM:SS.SSS" in UTC.
    public func columnType(_ type: SQLType) -> String {
        switch type {
        case .integer: "INTEGER"
        case .real: "DOUBLE"
        case .text: "TEXT"
        case .blob: "BLOB"
        case .boolean: "BOOLEAN"
        case .date: "DATETIME"
        }
    }

    /// A rowid alias; AUTOINCREMENT so that an id is never handed out twice, even after the newest row is deleted.
    public var generatedKey: String { "INTEGER PRIMARY KEY AUTOINCREMENT" }
}
