import Foundation
import GRDB
import Testing
import TwitterSQL

@testable import TwitterSQLite

/// SQLite's driver for the stores written once: values, arrays and dates as GRDB keeps them, and an async body run
/// to its end inside GRDB's synchronous closure. (Its spelling is `SQLDialectTests`'.)
struct SQLiteDriverTests {
    @Test func datesReadAsGRDBWroteThemToTheMillisecond() async throws {
        let database = try AppDatabase.inMemory()
        let written = Date(timeIntervalSince1970: 1_795_000_000.123)
        let (grdb, ours) = try await database.read { connection in
            let row = try await connection.firstRow("SELECT \(written) AS at, \(true) AS yes")
            return (try row?.column("at", as: Date.self), try row?.column("yes", as: Bool.self))
        }
        #expect(grdb.map { ($0.timeIntervalSince1970 * 1000).rounded() } == 1_795_000_000_123)
        #expect(ours == true)
        let found = try await database.read { connection in
            try await connection.values(
                "SELECT value FROM (SELECT 1 AS value UNION SELECT 2 UNION SELECT 3) WHERE value \(isIn: [Int64(1), 3])",
                as: Int64.self)
        }
        #expect(Set(found) == [1, 3])
        let names = try await database.read { connection in
            try await connection.values(
                "SELECT 'o''hara' AS n WHERE 'o''hara' \(isIn: ["o'hara", "x\\\"y"])", as: String.self)
        }
        #expect(names == ["o'hara"])
        #expect(try Date(sqlValue: .text("1970-01-02T00:00:01.5")).timeIntervalSince1970 == 86_401.5)
        #expect(throws: SQLDecodingError.self) { try Date(sqlValue: .text("yesterday")) }
    }

    @Test func aBodyThatAwaitsElsewhereStillRunsItsStatementsOnTheConnectionsThread() async throws {
        let database = try AppDatabase.inMemory()
        let elsewhere = Elsewhere()
        let count = try await database.transaction { connection in
            try await connection.run("CREATE TABLE t (n INTEGER)")
            for n in 1...3 {
                // An actor's hop takes the body off the writer's thread; its next statement must come back to it,
                // or GRDB refuses it (and SQLite's connection would be used from two threads).
                await elsewhere.visit()
                try await connection.run("INSERT INTO t (n) VALUES (\(n))")
            }
            return try await connection.value("SELECT count(*) FROM t", as: Int.self)
        }
        #expect(count == 3)
        #expect(await elsewhere.visits == 3)
    }

    @Test func aThrowingBodyRollsItsTransactionBack() async throws {
        let database = try AppDatabase.inMemory()
        try await database.transaction { connection in try await connection.run("CREATE TABLE t (n INTEGER)") }
        await #expect(throws: CancellationError.self) {
            try await database.transaction { connection in
                try await connection.run("INSERT INTO t (n) VALUES (1)")
                throw CancellationError()
            }
        }
        #expect(try await database.read { try await $0.value("SELECT count(*) FROM t", as: Int.self) } == 0)
    }
}

private actor Elsewhere {
    var visits = 0

    func visit() {
        visits += 1
    }
}

extension SQLiteDriverTests {
    /// The body must not wait for one of Swift's few cooperative threads (two on a two-core machine): a store
    /// call that needed one would stall whenever other tasks hold them all.
    @Test func aBodyRunsWhileEveryCooperativeThreadIsBusy() async throws {
        let database = try AppDatabase.inMemory()
        let release = DispatchSemaphore(value: 0)
        let holders = ProcessInfo.processInfo.activeProcessorCount + 2
        for _ in 0..<holders {
            Task.detached { release.wait() }
        }
        defer { for _ in 0..<holders { release.signal() } }
        let answered = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "outside")
        queue.async {
            // A thread of its own, as GRDB's are: run the body from there while the pool is held.
            _ = try? database.writer.read { db in
                try SQLiteConnection.run(db) { try await $0.value("SELECT 1", as: Int.self) }
            }
            answered.signal()
        }
        #expect(answered.wait(timeout: .now() + 10) == .success)
    }
}

extension SQLiteDriverTests {
    /// A repeated date is formatted once per connection: the one kept must be the one bound.
    @Test func aDateBoundAgainIsStoredAsTheFirstTimeAndADifferentOneAsItself() async throws {
        let database = try AppDatabase.inMemory()
        let first = Date(timeIntervalSince1970: 1_795_000_000.123)
        let second = Date(timeIntervalSince1970: 1_795_000_001.456)
        let texts = try await database.read { connection in
            try await connection.values(
                "SELECT \(first) UNION ALL SELECT \(first) UNION ALL SELECT \(second)", as: String.self)
        }
        #expect(texts == ["2026-11-18 11:06:40.123", "2026-11-18 11:06:40.123", "2026-11-18 11:06:41.456"])
    }
}

extension SQLiteDriverTests {
    /// A batch's first row is bound through GRDB's arguments, the others straight into the statement
    /// (`SQLiteConnection.insert`): every kind of value a row's own must be stored alike both ways, a value
    /// changing kind from row to row included, and a value for every row (bound once) stored in each.
    @Test func aBatchsRowsBoundStraightAreStoredAsTheRowGRDBBound() async throws {
        let database = try AppDatabase.inMemory()
        try await database.writer.write { db in
            try db.execute(sql: "CREATE TABLE kinds (id INTEGER PRIMARY KEY, i, t, oi, ot, d, r, b)")
        }
        let when = Date(timeIntervalSince1970: 1_795_000_000.123)
        let batch = SQLRowBatch(
            into: "kinds", count: 3, returningIDs: true,
            [
                SQLBatchColumn("i", .integers([7, 7, -9])),
                SQLBatchColumn("t", .texts(["café 😀", "café 😀", ""])),
                SQLBatchColumn("oi", .optionalIntegers([nil, nil, 5])),
                SQLBatchColumn("ot", .optionalTexts(["x", "x", nil])),
                SQLBatchColumn("d", .same(.date(when))),
                SQLBatchColumn("r", .same(.real(1.5))),
                SQLBatchColumn("b", .same(.blob(Data([0, 1, 255])))),
            ])
        let ids = try await database.transaction { connection in try await connection.insert(batch) }
        #expect(ids == [1, 2, 3])
        let rows = try await database.writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT typeof(i) || typeof(t) || typeof(oi) || typeof(ot) || typeof(d) || typeof(r) || typeof(b)
                        AS kinds, i, t, oi, ot, d, r, hex(b) AS b FROM kinds ORDER BY id
                    """)
        }
        try #require(rows.count == 3)
        let columns = ["kinds", "i", "t", "oi", "ot", "d", "r", "b"]
        let described: [[String]] = rows.map { row in
            columns.map { column -> String in
                let value: DatabaseValue = row[column]
                return value.description
            }
        }
        #expect(described[1] == described[0], "the row bound straight is the row GRDB bound")
        #expect(
            described[0] == [
                "\"integertextnulltexttextrealblob\"", "7", "\"café 😀\"", "NULL", "\"x\"",
                "\"2026-11-18 11:06:40.123\"", "1.5", "\"0001FF\"",
            ])
        #expect(
            described[2] == [
                "\"integertextintegernulltextrealblob\"", "-9", "\"\"", "5", "NULL", "\"2026-11-18 11:06:40.123\"",
                "1.5", "\"0001FF\"",
            ])
    }
}
