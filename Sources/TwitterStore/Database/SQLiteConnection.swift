import Foundation
import GRDB
import Synchronization
import TwitterSQL

/// The stores' `SQLConnection` over one GRDB connection, used only inside the GRDB closure that lent it, on
/// that closure's thread (`CallingThreadExecutor` keeps the body there).
struct SQLiteConnection: SQLConnection, @unchecked Sendable {
    // @unchecked: GRDB's `Database` is not Sendable; this value never leaves the thread of the closure that
    // made it, because the body it is handed to runs on that thread to its end before the closure returns.
    let db: Database

    var dialect: SQLDialect { .sqlite }

    /// Named texts are compiled once a connection (GRDB's statement cache), others each time.
    func rows(_ query: SQLQuery) throws -> [SQLRow] {
        let statement =
            if let named = query.named {
                try db.cachedStatement(sql: Self.translated(named))
            } else {
                try db.makeStatement(sql: SQLiteText.translate(query.text))
            }
        statement.setUncheckedArguments(StatementArguments(query.binds.map(\.databaseValue)))
        let names = statement.columnNames
        var rows: [SQLRow] = []
        let cursor = try Row.fetchCursor(statement)
        while let row = try cursor.next() {
            rows.append(SQLRow(names: names, values: row.databaseValues.map(\.sqlValue)))
        }
        return rows
    }

    /// Each named text translated once for the process.
    private static let translations = Mutex<[ObjectIdentifier: String]>([:])

    private static func translated(_ text: any SQLText.Type) -> String {
        let key = ObjectIdentifier(text)
        if let known = translations.withLock({ $0[key] }) { return known }
        let translation = SQLiteText.translate(text.sql)
        translations.withLock { $0[key] = translation }
        return translation
    }

    /// A body run on this connection, on the calling thread.
    static func run<Result: Sendable>(
        _ db: Database, _ body: @escaping @Sendable (any SQLConnection) async throws -> Result
    ) throws -> Result {
        let connection = SQLiteConnection(db: db)
        return try CallingThreadExecutor.run { try await body(connection) }
    }
}

/// PostgreSQL's spelling of a statement (`SQLQuery`) in SQLite's: `$n` becomes `?n`, and a cast right after a
/// placeholder (`$2::timestamptz`) is dropped, SQLite keeping any value in any column.
enum SQLiteText {
    static func translate(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var characters = Substring(text)
        while let dollar = characters.firstIndex(of: "$") {
            result += characters[..<dollar]
            characters = characters[characters.index(after: dollar)...]
            let digits = characters.prefix(while: \.isNumber)
            guard !digits.isEmpty else {
                result += "$"
                continue
            }
            result += "?" + digits
            characters = characters.dropFirst(digits.count)
            if characters.hasPrefix("::") {
                characters = characters.dropFirst(2).drop { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "[" || $0 == "]" }
            }
        }
        return result + characters
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
        case .date(let value): value.databaseValue
        }
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
