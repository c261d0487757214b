import GRDB
import GRDBSQLite
import TwitterSQL

extension SQLiteConnection {
    /// One compiled statement, run once a row in process, each new id from `lastInsertedRowID` (a `RETURNING`
    /// clause made SQLite gather the row in a table of its own, whose page it allocated and zeroed for every
    /// post).
    func insert(_ batch: SQLRowBatch) throws -> [Int64] {
        guard batch.count > 0 else { return [] }
        let statement = try db.cachedStatement(sql: Self.text(of: batch))
        var ids: [Int64] = []
        if batch.returnsIDs { ids.reserveCapacity(batch.count) }
        // The first row through GRDB's arguments, which leaves the statement's arguments known to be bound; every
        // other row's values bound straight into the same statement, each by GRDB's own binding of a
        // `DatabaseValue`, and only where they change: SQLite keeps a binding until it is replaced, so a column with
        // one value for every row (`.same`, the batch's time) is bound once. `StatementArguments` box each value in
        // an existential before binding it: bench/instructions.sh counted 145,664 instructions a post with every
        // row bound through them, 132,299 bound straight. SQLiteDriverTests checks that both ways store the same
        // row.
        var values = [(any DatabaseValueConvertible)?](repeating: nil, count: batch.columns.count)
        for (index, column) in batch.columns.enumerated() {
            values[index] = column.values.value(at: 0).databaseValue
        }
        statement.setUncheckedArguments(StatementArguments(values))
        try statement.execute()
        if batch.returnsIDs { ids.append(db.lastInsertedRowID) }
        let varying = batch.columns.indices.filter { index in
            if case .same = batch.columns[index].values { return false }
            return true
        }
        for row in 1..<batch.count {
            // A statement run to its end takes new values only once reset (GRDB resets it before running it).
            try Self.check(sqlite3_reset(statement.sqliteStatement), "reset", statement)
            for index in varying {
                let value = batch.columns[index].values.value(at: row).databaseValue
                try Self.check(value.bind(to: statement.sqliteStatement, at: Int32(index + 1)), "bind", statement)
            }
            try statement.execute()
            if batch.returnsIDs { ids.append(db.lastInsertedRowID) }
        }
        return ids
    }

    /// The batch's `INSERT`, written once a process for a named shape (`SQLRowBatch.named`): written again for
    /// every batch, its text cost a lone post about 17,000 instructions (callgrind, bench/instructions.sh's
    /// post_lone), near what the row's insert did.
    private static func text(of batch: SQLRowBatch) -> String {
        guard let named = batch.named else { return insertText(batch) }
        return insertTexts.text(of: named) { insertText(batch) }
    }

    private static let insertTexts = TextsByName()

    private static func insertText(_ batch: SQLRowBatch) -> String {
        let placeholders = batch.columns.indices.map { SQLiteDialect().placeholder($0 + 1) }
        return "INSERT INTO " + batch.table + " (" + batch.columns.map(\.name).joined(separator: ", ")
            + ") VALUES (" + placeholders.joined(separator: ", ") + ")"
            + (batch.skipsConflicts ? " ON CONFLICT DO NOTHING" : "")
    }

    /// Throws SQLite's error for a call on `statement` that did not return `SQLITE_OK`.
    private static func check(_ code: Int32, _ action: String, _ statement: Statement) throws {
        guard code != SQLITE_OK else { return }
        throw DatabaseError(
            resultCode: ResultCode(rawValue: code), message: "could not \(action) a row's values",
            sql: statement.sql)
    }
}
