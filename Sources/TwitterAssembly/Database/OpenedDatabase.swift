import Foundation
import Logging
import TwitterCore
import TwitterPostgres
import TwitterSQLite
import TwitterServer

/// The daemon's database, opened as the configuration selects: the SQLite file (held under its lock, so no
/// restore or second daemon touches it), or a PostgreSQL database that other daemons may share. The one place
/// that chooses a driver: the daemon and the in-process tests assemble their stores through it.
public enum OpenedDatabase: Sendable {
    /// A SQLite database, with the lock held on its file (none for one in memory).
    case sqlite(AppDatabase, lock: DatabaseLock?)
    /// A PostgreSQL database.
    case postgres(PostgresStore)

    /// Opens the configured database; for SQLite, after making its folder and files private.
    public static func open(_ configuration: ServerConfiguration, logger: Logger) async throws -> OpenedDatabase {
        guard let url = configuration.database.url else {
            for change in try StateFolder.prepare(databasePath: configuration.databasePath) {
                logger.notice("state made private", metadata: ["change": "\(change)"])
            }
            // Before the database is opened, and held until the process ends: `twitterd restore` and `seed`
            // refuse while it is held, and a daemon never opens a database a restore is halfway through replacing.
            let lock = try DatabaseLock(databasePath: configuration.databasePath)
            let database = try AppDatabase.open(path: configuration.databasePath)
            logger.info("database ready", metadata: ["sqlite": "\(configuration.databasePath)"])
            return .sqlite(database, lock: lock)
        }
        let location: PostgresLocation
        do {
            location = try PostgresLocation(url: url)
        } catch {
            throw ConfigurationError(key: "database.url", problem: "\(error)")
        }
        let store = try await PostgresStore.open(
            location, password: try password(configuration.database.passwordFile),
            poolSize: configuration.database.poolSize ?? PostgresStore.defaultPoolSize, logger: logger)
        let schema = try await store.schemaVersion()
        logger.info("database ready", metadata: ["postgresql": "\(location)", "schema": "\(schema)"])
        return .postgres(store)
    }

    /// An empty SQLite database in memory, migrated: for tests that assemble the daemon without a file.
    public static func inMemory() throws -> OpenedDatabase {
        .sqlite(try AppDatabase.inMemory(), lock: nil)
    }

    /// The password in `file`, without its trailing newline; nil without a file.
    public static func password(_ file: String?) throws -> String? {
        guard let file else { return nil }
        do {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            return String(text.drop(while: \.isNewline).reversed().drop(while: \.isNewline).reversed())
        } catch {
            throw ConfigurationError(
                key: "database.password_file", problem: "cannot read \(file): \(error.localizedDescription)")
        }
    }

    /// Every store, reporting commits to `observer`, for the uids of `host`.
    public func stores(observer: any CommitObserving, host: String) -> StoreSet {
        switch self {
        case .sqlite(let database, _): database.stores(observer: observer, host: host)
        case .postgres(let store): store.stores(observer: observer, host: host)
        }
    }

    /// Hands the uid-keyed rows made before hosts were kept to `host`.
    public func claimRowsWithoutHost(for host: String) async throws {
        switch self {
        case .sqlite(let database, _): try await database.claimRowsWithoutHost(for: host)
        case .postgres(let store): try await store.claimRowsWithoutHost(for: host)
        }
    }

    /// Which store this is and its version, for `system.version` and `system.health`.
    public func versions() async -> ComponentVersions {
        switch self {
        case .sqlite: return ServiceAssembly.versions
        case .postgres(let store):
            var versions = ServiceAssembly.versions
            versions.store = "postgresql"
            versions.storeVersion = (try? await store.serverVersion()) ?? "unknown"
            return versions
        }
    }

    /// Closes the database.
    public func close(logger: Logger) async {
        switch self {
        case .sqlite(let database, let lock):
            do { try database.close() } catch { logger.error("closing the database failed: \(error)") }
            withExtendedLifetime(lock) {}
        case .postgres(let store):
            await store.close()
        }
    }
}
