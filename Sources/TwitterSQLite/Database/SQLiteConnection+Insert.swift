import GRDB
import GRDBSQLite
import TwitterSQL

extension SQLiteConnection {
    /// One compiled statement, run once a row in process, each new id from `lastInsertedRowID` (a `RETURNING`
    /// clause made SQLite gather the row in a table of its own, whose page it allocated and zeroed for every
    /// post). The batch's time is formatted once (`FormattedDate`): Foundation's formatting had been a third of
    /// the post committer's time.
    func insert(_ batch: SQLRowBatch) throws -> [Int64] {
        guard batch.count > 0 else { return [] }
        let placeholders = batch.columns.indices.map { SQLiteDialect().placeholder($0 + 1) }
        let statement = try db.cachedStatement(
            sql: "INSERT INTO " + batch.table + " (" + batch.columns.map(\.name).joined(separator: ", ")
                + ") VALUES (" + placeholders.joined(separator: ", ") + ")"
                + (batch.skipsConflicts ? " ON CONFLICT DO NOTHING" : ""))
        var ids: [Int64] = []
        if batch.returnsIDs { ids.reserveCapacity(batch.count) }
        // The first row through GRDB's arguments, which leaves the statement's arguments known to be bound; every
        // other row bound straight into the same statement (`bind(_:at:to:)`). GRDB's `StatementArguments` box each
        // value in an existential before binding it: bench/instructions.sh counted 145,664 instructions a post with
        // every row bound through them, 134,053 bound straight. SQLiteDriverTests checks that both ways store the
        // same row.
        var values = [(any DatabaseValueConvertible)?](repeating: nil, count: batch.columns.count)
        for (index, column) in batch.columns.enumerated() {
            values[index] = databaseValue(column.values.value(at: 0))
        }
        statement.setUncheckedArguments(StatementArguments(values))
        try statement.execute()
        if batch.returnsIDs { ids.append(db.lastInsertedRowID) }
        for row in 1..<batch.count {
            // A statement run to its end takes new values only once reset (GRDB resets it before running it).
            let reset = sqlite3_reset(statement.sqliteStatement)
            guard reset == SQLITE_OK else {
                throw DatabaseError(resultCode: ResultCode(rawValue: reset), message: "could not reset a statement")
            }
            for (index, column) in batch.columns.enumerated() {
                try Self.bind(databaseValue(column.values.value(at: row)), at: Int32(index + 1), to: statement)
            }
            try statement.execute()
            if batch.returnsIDs { ids.append(db.lastInsertedRowID) }
        }
        return ids
    }

    /// Binds `value` to parameter `index` of `statement` as GRDB binds it (a text or blob copied by SQLite), for a
    /// statement whose arguments GRDB already counts as bound: `execute()` resets it, which keeps the bindings.
    private static func bind(_ value: DatabaseValue, at index: Int32, to statement: Statement) throws {
        let handle = statement.sqliteStatement
        let code: Int32
        switch value.storage {
        case .null: code = sqlite3_bind_null(handle, index)
        case .int64(let integer): code = sqlite3_bind_int64(handle, index, integer)
        case .double(let real): code = sqlite3_bind_double(handle, index, real)
        case .string(let text):
            code = sqlite3_bind_text(handle, index, text, -1, Self.transient)
        case .blob(let data):
            code = data.withUnsafeBytes { bytes in
                sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), Self.transient)
            }
        }
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "could not bind a value")
        }
    }

    /// SQLite's `SQLITE_TRANSIENT`: the value is copied before the call returns.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}
