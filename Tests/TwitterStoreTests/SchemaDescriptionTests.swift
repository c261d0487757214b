import Foundation
import Testing
import TwitterSQL

@testable import TwitterPostgres
@testable import TwitterSQLite

/// One description of a migration, rendered by each dialect as its database's DDL, and run on both: the way
/// every migration after SQLite's v15 and PostgreSQL's 11 is written (docs/ARCHITECTURE.md).
struct SchemaDescriptionTests {
    static let sample = SchemaMigration(
        "sample: two tables, every portable type, an index, a column added",
        [
            .createTable(SchemaTable("sample_owners", [SchemaColumn("name", .text)])),
            .createTable(
                SchemaTable(
                    "samples",
                    [
                        SchemaColumn("owner_id", .integer, references: "sample_owners"),
                        SchemaColumn("title", .text, default: .text("it's")),
                        SchemaColumn("score", .real, nullable: true),
                        SchemaColumn("data", .blob, nullable: true),
                        SchemaColumn("shown", .boolean, default: .boolean(true)),
                        SchemaColumn("created_at", .date),
                    ], uniques: [["owner_id", "title"]])),
            .createIndex(SchemaIndex("samples_shown", on: "samples", ["owner_id", "id"], where: "shown")),
            .addColumn(table: "samples", SchemaColumn("note", .text, nullable: true)),
        ])

    @Test func eachDialectRendersTheDescriptionAsItsOwnDDL() {
        #expect(
            Self.sample.statements(for: SQLiteDialect()) == [
                "CREATE TABLE sample_owners (\n    id INTEGER PRIMARY KEY AUTOINCREMENT,\n    name TEXT NOT NULL\n)",
                """
                CREATE TABLE samples (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    owner_id INTEGER NOT NULL REFERENCES sample_owners (id) ON DELETE CASCADE,
                    title TEXT NOT NULL DEFAULT 'it''s',
                    score DOUBLE,
                    data BLOB,
                    shown BOOLEAN NOT NULL DEFAULT TRUE,
                    created_at DATETIME NOT NULL,
                    UNIQUE (owner_id, title)
                )
                """,
                "CREATE INDEX samples_shown ON samples (owner_id, id) WHERE shown",
                "ALTER TABLE samples ADD COLUMN note TEXT",
            ])
        #expect(
            Self.sample.statements(for: PostgresDialect()) == [
                "CREATE TABLE sample_owners (\n    id bigserial PRIMARY KEY,\n    name text NOT NULL\n)",
                """
                CREATE TABLE samples (
                    id bigserial PRIMARY KEY,
                    owner_id bigint NOT NULL REFERENCES sample_owners (id) ON DELETE CASCADE,
                    title text NOT NULL DEFAULT 'it''s',
                    score double precision,
                    data bytea,
                    shown boolean NOT NULL DEFAULT TRUE,
                    created_at timestamptz NOT NULL,
                    UNIQUE (owner_id, title)
                )
                """,
                "CREATE INDEX samples_shown ON samples (owner_id, id) WHERE shown",
                "ALTER TABLE samples ADD COLUMN note text",
            ])
    }

    /// Each database numbers the migrations described once after its own released ones.
    @Test func theDescribedMigrationsFollowEachDatabasesReleasedOnes() {
        let postgres = PostgresSchema.described([Self.sample], after: 11)
        #expect(postgres.map(\.version) == [12] && postgres.first?.name == Self.sample.name)
        #expect(AppDatabase.describedName(Self.sample, number: 16) == "v16: " + Self.sample.name)
        #expect(PostgresSchema.latestVersion == 12 + SchemaHistory.migrations.count)
    }

    @Test(arguments: FreshDriverDatabase.backends)
    func theDescriptionRunsOnEveryDatabaseAndKeepsWhatItSays(_ backend: String) async throws {
        let database = try await FreshDriverDatabase.make(backend)
        let dialect = try await database.read { $0.dialect }
        try await database.transaction { connection in
            for statement in Self.sample.statements(for: dialect) {
                try await connection.run(SQLQuery(raw: statement, binds: []))
            }
        }
        let written = Date(timeIntervalSince1970: 1_795_000_000.123)
        let row = try await database.transaction { connection in
            guard
                let owner = try await connection.value(
                    "INSERT INTO sample_owners (name) VALUES (\("alice")) RETURNING id", as: Int64.self)
            else { throw SampleError() }
            try await connection.run(
                """
                INSERT INTO samples (owner_id, score, data, created_at)
                VALUES (\(owner), \(1.5), \(Data([1, 2])), \(dialect.stored(written)))
                """)
            return try await connection.firstRow("SELECT title, score, data, shown, created_at, note FROM samples")
        }
        #expect(try row?.column("title", as: String.self) == "it's")
        #expect(try row?.column("score", as: Double.self) == 1.5)
        #expect(try row?.column("data", as: Data.self) == Data([1, 2]))
        #expect(try row?.column("shown", as: Bool.self) == true)
        #expect(try row?.column("note", as: String?.self) == nil)
        let kept = try row?.column("created_at", as: Date.self)
        #expect(kept.map { ($0.timeIntervalSince1970 * 1000).rounded() } == 1_795_000_000_123)
        // The unique pair refuses a second row alike; the owner's deletion takes its samples with it.
        await #expect(throws: (any Error).self) {
            try await database.transaction { connection in
                try await connection.run(
                    """
                    INSERT INTO samples (owner_id, created_at)
                    SELECT id, \(dialect.stored(written)) FROM sample_owners
                    """)
            }
        }
        let left = try await database.transaction { connection in
            try await connection.run("DELETE FROM sample_owners")
            return try await connection.value("SELECT count(*) FROM samples", as: Int.self)
        }
        #expect(left == 0)
    }

    private struct SampleError: Error {}
}
