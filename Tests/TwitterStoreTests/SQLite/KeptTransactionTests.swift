import GRDB
import Testing

@testable import TwitterSQLite

/// `Database.inKeptTransaction`: the post committer's and every ordered write's transaction, its `BEGIN` and
/// `COMMIT` compiled once a connection. Each kept statement must do its work every time it runs, after a commit,
/// a rollback or a failed `COMMIT` alike.
struct KeptTransactionTests {
    @Test func eachTransactionCommitsOrRollsBackAsItsOwn() throws {
        let scratch = try ScratchDatabase("kept")
        defer { scratch.remove() }
        struct Refused: Error {}
        let (counts, leftOpen) = try scratch.database.writer.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE kept (n INTEGER PRIMARY KEY)")
            var counts: [Int] = []
            var leftOpen: [Bool] = []
            for n in 1...6 {
                do {
                    try db.inKeptTransaction {
                        #expect(db.isInsideTransaction, "begun again by the kept BEGIN")
                        try db.execute(sql: "INSERT INTO kept (n) VALUES (?)", arguments: [n])
                        if n % 2 == 0 { throw Refused() }
                    }
                } catch is Refused {}
                leftOpen.append(db.isInsideTransaction)
                try counts.append(Int.fetchOne(db, sql: "SELECT count(*) FROM kept") ?? -1)
            }
            return (counts, leftOpen)
        }
        #expect(counts == [1, 1, 2, 2, 3, 3], "odd rows committed, even ones rolled back")
        #expect(leftOpen == Array(repeating: false, count: 6))
        let reopened = try DatabaseQueue(path: scratch.path)
        #expect(try reopened.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM kept") } == 3)
    }

    /// A statement that fails inside the transaction (a duplicate key) leaves the connection ready for the next.
    @Test func aFailedStatementLeavesTheNextTransactionWhole() throws {
        let scratch = try ScratchDatabase("kept-failure")
        defer { scratch.remove() }
        let rows = try scratch.database.writer.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE kept (n INTEGER PRIMARY KEY)")
            try db.inKeptTransaction { try db.execute(sql: "INSERT INTO kept (n) VALUES (1)") }
            #expect(throws: DatabaseError.self) {
                try db.inKeptTransaction {
                    try db.execute(sql: "INSERT INTO kept (n) VALUES (2)")
                    try db.execute(sql: "INSERT INTO kept (n) VALUES (1)")
                }
            }
            #expect(!db.isInsideTransaction)
            try db.inKeptTransaction { try db.execute(sql: "INSERT INTO kept (n) VALUES (3)") }
            return try Int.fetchAll(db, sql: "SELECT n FROM kept ORDER BY n")
        }
        #expect(rows == [1, 3])
    }
}
