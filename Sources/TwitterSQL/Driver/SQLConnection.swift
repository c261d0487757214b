import Foundation
import TwitterCore

/// What the stores need of a database connection: the rows of a statement. SQLite's driver answers on its
/// writer's or a reader's thread, PostgreSQL's from its server; the stores cannot tell.
public protocol SQLConnection {
    /// What this database spells its own way.
    var dialect: any SQLDialect { get }

    /// Every row `query` returns; none for a statement that returns none.
    func rows(_ query: SQLQuery) async throws -> [SQLRow]

    /// Inserts `batch`'s rows in their order, each database its fastest way; the new rows' `id`s, ascending and so
    /// in the rows' order, when the batch asks for them (`returnsIDs`), or none.
    func insert(_ batch: SQLRowBatch) async throws -> [Int64]
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
