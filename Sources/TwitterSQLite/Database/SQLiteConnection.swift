import Foundation
import GRDB
import TwitterSQL

/// The stores' `SQLConnection` over one GRDB connection, used only inside the GRDB closure that lent it, on
/// that closure's thread (`CallingThreadExecutor` keeps the body there).
struct SQLiteConnection: SQLConnection, @unchecked Sendable {
    // @unchecked: GRDB's `Database` is not Sendable; this value never leaves the thread of the closure that
    // made it, because the body it is handed to runs on that thread to its end before the closure returns.
    let db: Database

    var dialect: any SQLDialect { SQLiteDialect() }

    /// Named texts are serialised once a process and compiled once a connection (GRDB's statement cache), others
    /// serialised and compiled each time.
    func rows(_ query: SQLQuery) throws -> [SQLRow] {
        let statement: Statement
        let binds: [SQLValue]
        if let named = query.named {
            statement = try db.cachedStatement(sql: Self.text(of: named))
            binds = query.binds
        } else {
            let serialized = query.serialized(for: SQLiteDialect())
            statement = try db.makeStatement(sql: serialized.text)
            binds = serialized.binds
        }
        // GRDB's generic `StatementArguments(_:)` maps with a key path built at run time at every call (about 7,000
        // instructions, twice a post in the committer, by callgrind); its existential form maps with a closure.
        let values = binds.map { $0.databaseValue as (any DatabaseValueConvertible)? }
        statement.setUncheckedArguments(StatementArguments(values))
        let columns = SQLColumns(statement.columnNames)
        var rows: [SQLRow] = []
        let cursor = try Row.fetchCursor(statement)
        while let row = try cursor.next() {
            rows.append(SQLRow(columns: columns, values: row.databaseValues.map { $0.sqlValue }))
        }
        return rows
    }

    /// Each named text in SQLite's spelling, serialised once for the process.
    private static let texts = TextsByName()

    private static func text(of named: any SQLText.Type) -> String {
        texts.text(of: named) { named.sql.serialized(for: SQLiteDialect()).text }
    }

    /// A body run on this connection, on the calling thread.
    static func run<Result: Sendable>(
        _ db: Database, _ body: @escaping @Sendable (any SQLConnection) async throws -> Result
    ) throws -> Result {
        let connection = SQLiteConnection(db: db)
        return try CallingThreadExecutor.run { try await body(connection) }
    }
}

extension SQLValue {
    /// The value as GRDB binds it: a Bool as 0 or 1, a Date as GRDB's UTC text, as every GRDB record writes them.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let value): value.databaseValue
        case .real(let value): value.databaseValue
        case .text(let value): value.databaseValue
        case .blob(let value): value.databaseValue
        case .bool(let value): value.databaseValue
        case .date(let value): StoredDateText.text(value)?.databaseValue ?? value.databaseValue
        case .integers(let values): "[\(values.map(String.init).joined(separator: ","))]".databaseValue
        case .texts(let values): Self.json(values).databaseValue
        }
    }

    /// Texts as a JSON array, for `json_each`.
    private static func json(_ values: [String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: values)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

extension DatabaseValue {
    /// The stored value as the stores read it; a date is text until a store reads it as a `Date`.
    var sqlValue: SQLValue {
        switch storage {
        case .null: .null
        case .int64(let value): .integer(value)
        case .double(let value): .real(value)
        case .string(let value): .text(value)
        case .blob(let value): .blob(value)
        }
    }
}
