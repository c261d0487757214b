import GRDB
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
        // GRDB's existential `StatementArguments` form, as in `rows`: its generic one builds a key path a call.
        var values = [(any DatabaseValueConvertible)?](repeating: nil, count: batch.columns.count)
        for row in 0..<batch.count {
            for (index, column) in batch.columns.enumerated() {
                values[index] = databaseValue(column.values.value(at: row))
            }
            statement.setUncheckedArguments(StatementArguments(values))
            try statement.execute()
            if batch.returnsIDs { ids.append(db.lastInsertedRowID) }
        }
        return ids
    }
}
