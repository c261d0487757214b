import Foundation
import TwitterSQL

/// PostgreSQL's spelling of the stores' statements: `$n` placeholders, a cast where the server cannot place a
/// value (a NULL), arrays bound as arrays and tested with `= ANY`, row locks, and advisory locks on keys.
public struct PostgresDialect: SQLDialect {
    /// The dialect.
    public init() {}

    /// `$n`.
    public func placeholder(_ index: Int) -> String {
        "$" + String(index)
    }

    /// `::type`, for a NULL the server cannot type from where it stands.
    public func cast(_ type: SQLType) -> String {
        "::" + columnType(type)
    }

    /// `= ANY($n)`, the array bound as PostgreSQL's own.
    public func membership(in placeholder: String) -> String {
        "= ANY(" + placeholder + ")"
    }

    /// PostgreSQL's names.
    public func name(of function: SQLFunction) -> String {
        switch function {
        case .greatest: "greatest"
        case .least: "least"
        case .stringAggregate: "string_agg"
        }
    }

    /// ` FOR UPDATE`, of one table of a join when named: concurrent transactions wait for the rows.
    public func clause(_ lock: SQLRowLock) -> String {
        switch lock {
        case .forUpdate: " FOR UPDATE"
        case .forUpdateOf(let table): " FOR UPDATE OF " + table
        }
    }

    /// The column as it is: PostgreSQL's planner weighs both ways.
    public func unindexed(_ column: String) -> String {
        column
    }

    /// `date` to the millisecond plus half a microsecond, so that binary rounding cannot push the stored value
    /// below it; postgres-nio truncates toward PostgreSQL's epoch (2000-01-01), so before it the half
    /// microsecond is taken off instead.
    public func stored(_ date: Date) -> Date {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000
        return Date(timeIntervalSince1970: milliseconds + (milliseconds < 946_684_800 ? -0.000_000_5 : 0.000_000_5))
    }

    /// An advisory lock on the key's hash, held to the transaction's end.
    public func keyLock(_ space: Int32, _ key: String) -> SQLQuery? {
        SQLQuery(KeyLock.self, Int(space), key)
    }

    private enum KeyLock: SQLText {
        static let sql: SQLQuery = "SELECT pg_advisory_xact_lock(\(param: 1)::integer, hashtext(\(param: 2)))"
    }

    /// Yes: `commit_events` carries every commit, sends included, to the other daemons.
    public var keepsCommitLog: Bool { true }

    /// PostgreSQL's types; a date is a `timestamptz`.
    public func columnType(_ type: SQLType) -> String {
        switch type {
        case .integer: "bigint"
        case .real: "double precision"
        case .text: "text"
        case .blob: "bytea"
        case .boolean: "boolean"
        case .date: "timestamptz"
        }
    }

    /// A `bigserial`: never reused, so `sinceId` and `maxId` stay meaningful.
    public var generatedKey: String { "bigserial PRIMARY KEY" }
}
