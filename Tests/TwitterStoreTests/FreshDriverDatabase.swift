import Logging
import TestSupport
import TwitterSQL

@testable import TwitterPostgres
@testable import TwitterSQLite

/// An empty, migrated database of one driver, as the stores' driver protocol sees it: for tests of what each
/// driver must do alike below the stores (dialects, schema descriptions, row batches).
enum FreshDriverDatabase {
    /// The drivers, by name.
    static let backends = ["SQLite", "PostgreSQL"]

    /// A database of `backend`: SQLite in memory, or one of its own in the run's PostgreSQL test cluster.
    static func make(_ backend: String) async throws -> any SQLDatabase {
        if backend == "SQLite" { return try AppDatabase.inMemory() }
        let location = try PostgresLocation(url: try TestPostgres.freshDatabase())
        let store = try await PostgresStore.open(
            location, poolSize: 2, logger: Logger(label: "test.postgres", factory: { _ in SwiftLogNoOpLogHandler() }))
        return PostgresSQLDatabase(store: store)
    }
}
