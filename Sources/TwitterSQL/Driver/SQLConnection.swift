import Foundation
import TwitterCore

/// What the stores need of a database connection: the rows of a statement. SQLite's driver answers on its
/// writer's or a reader's thread, PostgreSQL's from its server; the stores cannot tell.
public protocol SQLConnection {
    /// What this database spells its own way.
    var dialect: SQLDialect { get }

    /// Every row `query` returns; none for a statement that returns none.
    func rows(_ query: SQLQuery) async throws -> [SQLRow]
}

extension SQLConnection {
    /// The first row `query` returns, if any.
    public func firstRow(_ query: SQLQuery) async throws -> SQLRow? {
        try await rows(query).first
    }

    /// The first column of the first row; nil when there is no row or it is NULL.
    public func value<Value: SQLDecodable>(_ query: SQLQuery, as type: Value.Type = Value.self) async throws
        -> Value?
    {
        guard let row = try await rows(query).first, let value = row.values.first, value != .null else { return nil }
        return try Value(sqlValue: value)
    }

    /// The first column of every row.
    public func values<Value: SQLDecodable>(_ query: SQLQuery, as type: Value.Type = Value.self) async throws
        -> [Value]
    {
        try await rows(query).map { try $0.first(as: Value.self) }
    }

    /// Runs `query` for its effect.
    public func run(_ query: SQLQuery) async throws {
        _ = try await rows(query)
    }
}

/// The few things the two databases spell differently, each named once.
public enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// `date` as this database keeps it, so that what a write returns is what a later read finds: both keep
    /// milliseconds, but SQLite's GRDB truncates a `Date` to them and postgres-nio to microseconds (see each).
    public func stored(_ date: Date) -> Date {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down) / 1000
        switch self {
        case .sqlite:
            // Plus 50 µs, so that binary rounding cannot push the stored value below the millisecond.
            return Date(timeIntervalSince1970: milliseconds + 0.000_05)
        case .postgres:
            // Plus half a microsecond for the same reason; postgres-nio truncates toward PostgreSQL's epoch
            // (2000-01-01), so before it the half microsecond is taken off instead.
            return Date(
                timeIntervalSince1970: milliseconds + (milliseconds < 946_684_800 ? -0.000_000_5 : 0.000_000_5))
        }
    }

    /// `column` as an expression the planner cannot serve from an index on it: SQLite's unary plus, which keeps
    /// its planner walking a timeline newest first; as it is on PostgreSQL, whose planner weighs both ways.
    public func unindexed(_ column: String) -> String {
        self == .sqlite ? "+" + column : column
    }

    /// A statement that holds a lock on `key` (within `space`) until the transaction ends, for a change whose
    /// row may not exist yet; nil on SQLite, whose one writer already excludes every other.
    public func keyLock(_ space: Int32, _ key: String) -> SQLQuery? {
        guard self == .postgres else { return nil }
        return SQLQuery(KeyLock.self, Int(space), key)
    }

    private enum KeyLock: SQLText {
        static let sql = "SELECT pg_advisory_xact_lock($1::integer, hashtext($2))"
    }
}
