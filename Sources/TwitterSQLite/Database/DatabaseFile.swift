import Foundation
import GRDB

/// An existing database file opened read-only, without migrating it, for `twitterd backup`, `restore` and
/// `check`: they run beside a serving daemon (or on a backup) and must change nothing.
///
/// In WAL mode a reader never blocks the daemon's writers, and every read here is one SQLite read transaction,
/// so what it sees is one committed state of the database.
public struct DatabaseFile {
    private let queue: DatabaseQueue

    /// The path it was opened at.
    public let path: String

    /// Opens the database at `path` read-only; throws when there is no file there or it is not a database.
    public static func open(path: String) throws -> DatabaseFile {
        // SQLite would create a missing file even for a reader in some modes; a typo must not look like an
        // empty database.
        guard FileManager.default.fileExists(atPath: path) else { throw Failure(description: "no database at \(path)") }
        var configuration = Configuration()
        configuration.readonly = true
        // A daemon's checkpoint may hold the write lock for a moment; wait for it rather than fail.
        configuration.busyMode = .timeout(10)
        return DatabaseFile(queue: try DatabaseQueue(path: path, configuration: configuration), path: path)
    }

    /// Copies the whole database, as of one moment, into the empty file at `destination`, with SQLite's online
    /// backup API in a single step, and leaves the copy in rollback-journal mode so it is one self-contained
    /// file (a WAL-mode copy would grow `-wal` and `-shm` files beside it the first time it is opened).
    ///
    /// One step reads every page inside one read transaction: commits the daemon makes meanwhile go to its WAL
    /// and are not in the copy, and every commit made before the step began is. Page by page steps would have
    /// to start over after each such commit.
    public func backup(to destination: String) throws {
        let target = try DatabaseQueue(path: destination)
        do {
            try queue.backup(to: target)
            try target.writeWithoutTransaction { db in
                // The pages carry the source's WAL flag; switching back rewrites it, and the close below then
                // removes the -wal and -shm files the switch opened.
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
            }
            try target.close()
        } catch {
            try? target.close()
            throw error
        }
    }

    /// SQLite's `PRAGMA integrity_check`: ["ok"] for a sound file, otherwise one line per problem found.
    /// A file too damaged to be read at all throws instead.
    public func integrityCheck() throws -> [String] {
        try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    /// SQLite's `PRAGMA foreign_key_check`: one entry per row whose parent row is missing; empty when none.
    public func foreignKeyViolations() throws -> [ForeignKeyViolation] {
        try queue.read { db in
            try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { row in
                // Optional decoding throughout: a damaged file must give a report, not a trap on a NULL.
                ForeignKeyViolation(
                    table: (row[0] as String?) ?? "?", rowID: row[1] as Int64?, parent: (row[2] as String?) ?? "?")
            }
        }
    }

    /// How many accounts and tweets the file holds, for the summary lines of backup and restore; nil counts
    /// when a table is missing (a file that is not a twitterd database, or one never migrated).
    public func counts() throws -> Counts {
        try queue.read { db in
            Counts(
                users: try db.tableExists("users") ? Int.fetchOne(db, sql: "SELECT count(*) FROM users") : nil,
                tweets: try db.tableExists("tweets") ? Int.fetchOne(db, sql: "SELECT count(*) FROM tweets") : nil)
        }
    }

    /// Closes the file.
    public func close() throws {
        try queue.close()
    }

    /// A row that names a parent row that does not exist.
    public struct ForeignKeyViolation: Sendable, Equatable, CustomStringConvertible {
        /// The table of the row.
        public let table: String
        /// Its rowid; nil for a table without rowids.
        public let rowID: Int64?
        /// The table the missing parent should be in.
        public let parent: String

        /// `row 12 of tweets refers to a missing row of users`.
        public var description: String {
            "row \(rowID.map(String.init) ?? "?") of \(table) refers to a missing row of \(parent)"
        }
    }

    /// The row counts of `counts()`.
    public struct Counts: Sendable, Equatable {
        /// Rows of the user table.
        public let users: Int?
        /// Rows of the tweet table.
        public let tweets: Int?
    }

    /// A file that cannot be used.
    public struct Failure: Error, CustomStringConvertible {
        /// What is wrong, naming the path.
        public let description: String
    }
}
