import PostgresNIO
import Synchronization
import TwitterSQL

extension PostgresSQLConnection {
    /// One statement for the whole batch: each column an array unnested beside the others, `WITH ORDINALITY …
    /// ORDER BY n` giving out the ids in the rows' order. postgres-nio's arrays hold no NULL, so a column that may
    /// be NULL is sent as its values (0 or '' for none) and an array saying which are there. A named batch's
    /// statement is prepared once a connection, as a named text's is.
    func insert(_ batch: SQLRowBatch) async throws -> [Int64] {
        guard batch.count > 0 else { return [] }
        var binds: [SQLValue] = []
        var arrays: [String] = []
        var selected: [String] = []
        /// Binds `value` as the next array; its column's name in the unnested rows.
        func unnest(_ value: SQLValue, as type: String) -> String {
            binds.append(value)
            arrays.append("$\(binds.count)::\(type)[]")
            return "v\(arrays.count)"
        }
        for column in batch.columns {
            switch column.values {
            case .integers(let values):
                selected.append(unnest(.integers(values), as: "bigint"))
            case .texts(let values):
                selected.append(unnest(.texts(values), as: "text"))
            case .optionalIntegers(let values):
                let value = unnest(.integers(values.map { $0 ?? 0 }), as: "bigint")
                let present = unnest(.integers(values.map { $0 == nil ? 0 : 1 }), as: "bigint")
                selected.append("CASE WHEN \(present) = 1 THEN \(value) END")
            case .optionalTexts(let values):
                let value = unnest(.texts(values.map { $0 ?? "" }), as: "text")
                let present = unnest(.integers(values.map { $0 == nil ? 0 : 1 }), as: "bigint")
                selected.append("CASE WHEN \(present) = 1 THEN \(value) END")
            case .same(let value):
                binds.append(value)
                selected.append("$\(binds.count)")
            }
        }
        let source: String
        if arrays.isEmpty {
            binds.append(.integer(Int64(batch.count)))
            source = "generate_series(1, $\(binds.count)) AS batch(n)"
        } else {
            let names = arrays.indices.map { "v\($0 + 1)" } + ["n"]
            source =
                "unnest(" + arrays.joined(separator: ", ") + ") WITH ORDINALITY AS batch("
                + names.joined(separator: ", ") + ")"
        }
        let text =
            "INSERT INTO " + batch.table + " (" + batch.columns.map(\.name).joined(separator: ", ") + ") SELECT "
            + selected.joined(separator: ", ") + " FROM " + source + " ORDER BY n"
            + (batch.skipsConflicts ? " ON CONFLICT DO NOTHING" : "") + (batch.returnsIDs ? " RETURNING id" : "")
        let rows: [SQLRow]
        if let named = batch.named {
            var bindings = PostgresBindings(capacity: binds.count)
            for value in binds { value.bind(into: &bindings) }
            rows = try await preparedBatch(named, text: text, bindings)
        } else {
            rows = try await self.rows(SQLQuery(raw: text, binds: binds))
        }
        guard batch.returnsIDs else { return [] }
        // Ids were given out in the rows' order; RETURNING need not list them in it.
        return try rows.map { try $0.first(as: Int64.self) }.sorted()
    }

    /// The rows of `Name`'s batch statement, `text` the first time any connection runs it.
    private func preparedBatch<Name: SQLBatchNaming>(_ name: Name.Type, text: String, _ bindings: PostgresBindings)
        async throws -> [SQLRow]
    {
        batchTexts.withLock { texts in
            if texts[ObjectIdentifier(name)] == nil { texts[ObjectIdentifier(name)] = text }
        }
        let rows = try await connection.rows(NamedBatch<Name>(bindings: bindings))
        guard let first = rows.first else { return [] }
        let columns = SQLColumns(first.map(\.columnName))
        return try rows.map { row in SQLRow(columns: columns, values: try row.map(SQLValue.init)) }
    }
}

/// Each named batch's statement, as its first batch spelt it.
private let batchTexts = Mutex<[ObjectIdentifier: String]>([:])

/// A named batch's statement as postgres-nio's prepared statement, its values bound already.
private struct NamedBatch<Name: SQLBatchNaming>: PostgresPreparedStatement {
    static var sql: String { batchTexts.withLock { $0[ObjectIdentifier(Name.self)] } ?? "" }

    static var name: String { statementName(of: Name.self) }

    typealias Row = PostgresRow

    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}
