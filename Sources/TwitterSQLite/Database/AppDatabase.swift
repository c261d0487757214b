import Foundation
import GRDB
import GRDBSQLite
import Synchronization
import TwitterCore

/// The daemon's SQLite database: one connection pool in WAL mode, its migrations, and health checks.
///
/// Store types take an `AppDatabase` and add intent-named reads and writes; nothing else touches GRDB.
public struct AppDatabase: HealthChecking {
    /// The underlying writer; a `DatabasePool` on disk, a `DatabaseQueue` in tests.
    let writer: any DatabaseWriter
    /// Checkpoints the file's write-ahead log off the writer's thread; none in memory.
    let checkpointer: WALCheckpointer?
    /// Syncs the write-ahead log off the writer's thread for the post committer; none in memory.
    let syncer: WALSyncer?

    /// Wraps `writer`, runs every pending migration and indexes what the text index lacks.
    public init(_ writer: any DatabaseWriter) throws {
        try self.init(writer, checkpointer: nil, syncer: nil)
    }

    private init(_ writer: any DatabaseWriter, checkpointer: WALCheckpointer?, syncer: WALSyncer?) throws {
        self.writer = writer
        self.checkpointer = checkpointer
        self.syncer = syncer
        try Self.migrator.migrate(writer)
        try SearchIndexer.catchUp(writer)
    }

    /// Opens (creating if missing) the database file at `path`, with its folder.
    public static func open(path: String) throws -> AppDatabase {
        try open(path: path, checkpoints: WALCheckpointer.Limits())
    }

    /// Opens the file at `path`, checkpointing its log at `checkpoints`.
    static func open(path: String, checkpoints: WALCheckpointer.Limits) throws -> AppDatabase {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let checkpointer = WALCheckpointer(path: path, limits: checkpoints)
        var configuration = makeConfiguration()
        // The pool's configuration holds the checkpointer as long as its writer connection may call it.
        configuration.prepareDatabase { db in checkpointer.install(on: db) }
        let pool = try DatabasePool(path: path, configuration: configuration)
        do {
            // GRDB's pool sets its writer to NORMAL as it turns WAL on, after `prepareDatabase`: so until this line
            // no commit was synced before its answer, and a power cut could lose answered writes (`PowerCutTests`
            // found it). Only the writer commits; the post committer syncs its own batches (`WALSyncer`).
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            return try AppDatabase(pool, checkpointer: checkpointer, syncer: WALSyncer(databasePath: path))
        } catch {
            checkpointer.close()
            throw error
        }
    }

    /// An in-memory database for tests, migrated like the real one.
    public static func inMemory() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue(configuration: makeConfiguration()))
    }

    static func makeConfiguration() -> Configuration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // FULL makes every commit reach the disk before it returns, so an answered write survives a power
            // cut, not only a killed daemon; group commit keeps the cost of that sync shared. (A pool's writer
            // needs it again after GRDB turns WAL on: `open(path:checkpoints:)`.)
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        // Writers wait for each other instead of failing with SQLITE_BUSY when a second process (a backup,
        // `twitterd seed`) holds the lock for a moment.
        configuration.busyMode = .timeout(5)
        // GRDB's queues default to .userInitiated, and on Linux libdispatch gives each of their worker threads the
        // nice value of that QoS (-2) with setpriority(2). An unprivileged daemon may not lower its nice value past
        // RLIMIT_NICE, which a sandboxed systemd cannot always raise, so every database thread logged "Failed to set
        // thread priority for worker thread ... errno=13" at start. The database is no more urgent than the event
        // loops that call it, which run at the default.
        configuration.qos = .default
        return configuration
    }
}

extension AppDatabase {
    /// The SQLite library version the daemon runs on.
    public static var sqliteVersion: String {
        String(cString: sqlite3_libversion())
    }

    /// SQLite runs on this process's own threads: a read that never answers means the daemon is wedged.
    public var answersInProcess: Bool { true }

    /// `failed` once a sync of the log failed (`WALSyncer`): posts are answered -32603 until a restart.
    public var durability: Durability { syncer?.durability ?? .durable }

    /// Answers when the database can serve a read; throws otherwise.
    public func ping() async throws {
        _ = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }

    /// Runs SQLite's own consistency check and returns its verdict ("ok" when sound).
    public func integrityCheck() async throws -> String {
        try await writer.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer" }
    }

    /// Closes the database; later calls fail.
    public func close() throws {
        syncer?.waitUntilDrained()
        if let checkpointer {
            checkpointer.close()
            // The whole log into the file, and the log emptied, so that after a clean stop the file alone holds
            // every commit. SQLite would do it as the last connection closes, but GRDB closes the writer
            // before the readers, and a reader cannot.
            _ = try? writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        }
        if let pool = writer as? DatabasePool {
            try pool.close()
        } else if let queue = writer as? DatabaseQueue {
            try queue.close()
        }
    }
}
