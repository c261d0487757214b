import Foundation
import Testing
import TwitterSQL

@testable import TwitterPostgres
@testable import TwitterSQLite

/// A batch of rows, written by each driver its own way (SQLite a compiled statement a row, PostgreSQL one
/// statement of unnested arrays), lands alike: every row in order with its ids, NULLs where a value is absent,
/// one value for every row where the batch says so, and conflicts skipped when asked.
struct SQLRowBatchTests {
    @Test(arguments: FreshDriverDatabase.backends)
    func aBatchLandsInOrderWithItsIDsAndItsNulls(_ backend: String) async throws {
        let database = try await FreshDriverDatabase.make(backend)
        let now = Date(timeIntervalSince1970: 1_795_000_000.123)
        let (ids, rows, skipped) = try await database.transaction { connection in
            try await connection.run(
                SQLQuery(
                    raw: SchemaChange.createTable(
                        SchemaTable(
                            "batch_rows",
                            [
                                SchemaColumn("n", .integer), SchemaColumn("label", .text),
                                SchemaColumn("parent", .integer, nullable: true),
                                SchemaColumn("note", .text, nullable: true), SchemaColumn("at", .date),
                            ], uniques: [["n"]])
                    ).statements(for: connection.dialect)[0], binds: []))
            let stamp = connection.dialect.stored(now)
            let ids = try await connection.insert(
                SQLRowBatch(
                    into: "batch_rows", count: 3, returningIDs: true,
                    [
                        SQLBatchColumn("n", .integers([3, 1, 2])), SQLBatchColumn("label", .texts(["c", "a", "b"])),
                        SQLBatchColumn("parent", .optionalIntegers([nil, 0, 7])),
                        SQLBatchColumn("note", .optionalTexts(["", nil, "x"])),
                        SQLBatchColumn("at", .same(.date(stamp))),
                    ]))
            let skipped = try await connection.insert(
                SQLRowBatch(
                    into: "batch_rows", count: 2, skippingConflicts: true, returningIDs: true,
                    [
                        SQLBatchColumn("n", .integers([1, 4])), SQLBatchColumn("label", .texts(["again", "d"])),
                        SQLBatchColumn("at", .same(.date(stamp))),
                    ]))
            let empty = try await connection.insert(
                SQLRowBatch(into: "batch_rows", count: 0, [SQLBatchColumn("n", .integers([]))]))
            #expect(empty.isEmpty)
            return (
                ids, try await connection.rows("SELECT id, n, label, parent, note, at FROM batch_rows ORDER BY id"),
                skipped
            )
        }
        #expect(ids.count == 3 && ids == ids.sorted())
        #expect(skipped.isEmpty)
        #expect(try rows.map { try $0.column("id", as: Int64.self) }.prefix(3) == ids[...])
        #expect(try rows.map { try $0.column("n", as: Int64.self) } == [3, 1, 2, 4], "in order; the conflict skipped")
        #expect(try rows.map { try $0.column("label", as: String.self) } == ["c", "a", "b", "d"])
        #expect(try rows.map { try $0.column("parent", as: Int64?.self) } == [nil, 0, 7, nil])
        #expect(try rows.map { try $0.column("note", as: String?.self) } == ["", nil, "x", nil])
        #expect(
            try rows.map { (try $0.column("at", as: Date.self).timeIntervalSince1970 * 1000).rounded() }
                == Array(repeating: 1_795_000_000_123, count: 4))
    }

    /// A named batch's statement is kept (prepared on PostgreSQL) and serves the next batch of the shape, whatever
    /// its count.
    @Test(arguments: FreshDriverDatabase.backends)
    func aNamedBatchServesTheNextBatchOfItsShape(_ backend: String) async throws {
        let database = try await FreshDriverDatabase.make(backend)
        let ids = try await database.transaction { connection in
            try await connection.run(
                SQLQuery(
                    raw: SchemaChange.createTable(SchemaTable("named_rows", [SchemaColumn("label", .text)]))
                        .statements(for: connection.dialect)[0], binds: []))
            var ids: [Int64] = []
            for labels in [["a"], ["b", "c", "d"], ["e", "f"]] {
                ids += try await connection.insert(
                    SQLRowBatch(
                        into: "named_rows", count: labels.count, returningIDs: true, named: NamedRows.self,
                        [SQLBatchColumn("label", .texts(labels))]))
            }
            return ids
        }
        #expect(ids.count == 6 && Set(ids).count == 6 && ids == ids.sorted())
    }

    private enum NamedRows: SQLBatchNaming {}
}
