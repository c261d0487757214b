import Foundation
import Testing
import TwitterPostgres
import TwitterSQL
import TwitterSQLite

/// A query written once is spelt by each database's dialect when it is serialised: the same query gives
/// PostgreSQL's text and SQLite's, with its values in placeholder order, and nothing is rewritten afterwards.
struct SQLDialectTests {
    /// A query, and its text for PostgreSQL and for SQLite.
    struct Case: Sendable, CustomTestStringConvertible {
        let query: SQLQuery
        let postgres: String
        let sqlite: String
        var testDescription: String { postgres }
    }

    static let cases: [Case] = [
        Case(query: "SELECT 1", postgres: "SELECT 1", sqlite: "SELECT 1"),
        Case(
            query: "WHERE id = \(Int64(7)) AND user_id = \(Int64(8))", postgres: "WHERE id = $1 AND user_id = $2",
            sqlite: "WHERE id = ?1 AND user_id = ?2"),
        Case(
            query: "VALUES (\(Int64(1)), \(nil as Date?, as: .date))", postgres: "VALUES ($1, $2::timestamptz)",
            sqlite: "VALUES (?1, ?2)"),
        Case(
            query: "WHERE NOT id \(isIn: [Int64(1), 2]) AND x = \(Int64(3))",
            postgres: "WHERE NOT id = ANY($1) AND x = $2",
            sqlite: "WHERE NOT id IN (SELECT value FROM json_each(?1)) AND x = ?2"),
        Case(
            query:
                "SELECT \(function: .greatest)(a, b), \(function: .least)(a, b), \(function: .stringAggregate)(x, ' ')",
            postgres: "SELECT greatest(a, b), least(a, b), string_agg(x, ' ')",
            sqlite: "SELECT max(a, b), min(a, b), group_concat(x, ' ')"),
        Case(
            query: "WHERE id = \(Int64(1))\(lock: .forUpdate)", postgres: "WHERE id = $1 FOR UPDATE",
            sqlite: "WHERE id = ?1"),
        Case(
            query: "ORDER BY lists.id\(lock: .forUpdateOf("lists"))\nLIMIT 1",
            postgres: "ORDER BY lists.id FOR UPDATE OF lists\nLIMIT 1", sqlite: "ORDER BY lists.id\nLIMIT 1"),
        Case(
            query: "WHERE \(unindexed: "tweets.author_id") = \(Int64(1))",
            postgres: "WHERE tweets.author_id = $1", sqlite: "WHERE +tweets.author_id = ?1"),
        Case(
            query: "SELECT '$1 for update' || name, \(unescaped: "x")",
            postgres: "SELECT '$1 for update' || name, x", sqlite: "SELECT '$1 for update' || name, x"),
        // A named text numbers its values, which are given apart.
        Case(
            query: "UPDATE t SET a = \(param: 2), b = COALESCE(\(param: 1, as: .text), b) WHERE id \(isInParam: 3)",
            postgres: "UPDATE t SET a = $2, b = COALESCE($1::text, b) WHERE id = ANY($3)",
            sqlite: "UPDATE t SET a = ?2, b = COALESCE(?1, b) WHERE id IN (SELECT value FROM json_each(?3))"),
    ]

    @Test(arguments: cases)
    func aQueryIsSpeltInEachDatabasesOwnWay(_ example: Case) {
        #expect(example.query.serialized(for: PostgresDialect()).text == example.postgres)
        #expect(example.query.serialized(for: SQLiteDialect()).text == example.sqlite)
    }

    @Test func valuesAreBoundInTheOrderOfTheirPlaceholders() {
        var conditions: [SQLQuery] = ["a = \(Int64(1))", "b \(isIn: ["x", "y"])"]
        conditions.append("c = \(true)")
        let query: SQLQuery = "SELECT * FROM t WHERE \(conditions.joined(separator: " AND ")) LIMIT \(Int64(5))"
        let postgres = query.serialized(for: PostgresDialect())
        #expect(postgres.text == "SELECT * FROM t WHERE a = $1 AND b = ANY($2) AND c = $3 LIMIT $4")
        #expect(postgres.binds == [.integer(1), .texts(["x", "y"]), .bool(true), .integer(5)])
        #expect(query.serialized(for: SQLiteDialect()).binds == postgres.binds)
    }

    @Test func aNamedTextKeepsItsValuesApart() {
        enum Lookup: SQLText { static let sql: SQLQuery = "SELECT id FROM t WHERE k = \(param: 1)" }
        let use = SQLQuery(Lookup.self, "key")
        #expect(use.binds == [.text("key")])
        #expect(Lookup.sql.serialized(for: SQLiteDialect()).text == "SELECT id FROM t WHERE k = ?1")
    }

    @Test func eachDatabaseKeepsADateToTheMillisecond() {
        let date = Date(timeIntervalSince1970: 1_795_000_000.123_456)
        for dialect in [PostgresDialect() as any SQLDialect, SQLiteDialect()] {
            let kept = dialect.stored(date).timeIntervalSince1970
            #expect((kept * 1000).rounded(.down) == 1_795_000_000_123, "\(dialect)")
        }
        #expect(PostgresDialect().keyLock(1, "k") != nil && SQLiteDialect().keyLock(1, "k") == nil)
    }
}
