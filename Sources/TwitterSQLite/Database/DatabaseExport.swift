import Foundation
import GRDB
import TwitterCore

/// A SQLite database read table by table, for `twitterd migrate-data`: every row as `TransferValue`s, so the
/// PostgreSQL importer never sees a GRDB type.
///
/// The file is opened read-only and must already be at this build's schema: copying is no time to change the
/// source, and `twitterd migrate` brings an old file up to date first.
public struct DatabaseExport: Sendable {
    private let queue: DatabaseQueue

    /// The path it was opened at.
    public let path: String

    /// Every table that holds data, parents before the tables that refer to them: accounts, then tweets (whose
    /// reposts refer to tweets with smaller ids), then what refers to both; reports before the notifications
    /// that name them. The search index (`tweet_search`) is left out: the target builds its own.
    public static let tables = [
        "users", "oauth_apps", "tokens", "oauth_codes", "oauth_app_tokens", "peer_links", "login_throttles", "tweets",
        "tweet_tombstones", "follows", "tweet_likes",
        "tweet_mentions", "tweet_tags", "reports", "notifications", "notification_markers", "mutes", "blocks",
        "audit_entries",
        "reserved_usernames", "password_resets", "rate_buckets", "signup_buckets", "bookmarks", "pinned_tweets",
        "lists", "list_members",
        // Direct messages, their texts sealed: the target's daemons need the same messages key.
        "conversations", "conversation_members", "messages", "message_settings",
    ]

    /// The primary keys of the tables without a rowid, which batches are paged by; the others page by rowid.
    private static let withoutRowID = [
        "tweet_mentions": ["tweet_id", "user_id"], "tweet_tags": ["tag", "tweet_id"],
        "rate_buckets": ["user_id", "action"], "conversation_members": ["conversation_id", "user_id"],
    ]

    /// Opens the database at `path` read-only; throws when there is no file there, it is not a twitterd
    /// database, or it lacks some of this build's migrations.
    public static func open(path: String) throws -> DatabaseExport {
        // A typo must not look like an empty database.
        guard FileManager.default.fileExists(atPath: path) else {
            throw DatabaseFile.Failure(description: "no database at \(path)")
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        let current = try queue.read { db in
            try db.tableExists("grdb_migrations") && AppDatabase.migrator.hasCompletedMigrations(db)
        }
        guard current else {
            try? queue.close()
            throw DatabaseFile.Failure(
                description:
                    "\(path) is not at this build's schema; run `twitterd migrate --database \(path)` first "
                    + "(the copy opens it read-only)")
        }
        return DatabaseExport(queue: queue, path: path)
    }

    /// The number of rows of every table in `tables`, read in one transaction.
    public func counts() throws -> [String: Int] {
        try queue.read { db in
            var counts: [String: Int] = [:]
            for table in Self.tables {
                counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)")
            }
            return counts
        }
    }

    /// The highest id each AUTOINCREMENT table ever gave out (SQLite's `sqlite_sequence`), by table: above the
    /// largest id still there when the newest rows were deleted. An id is never given out twice, so the target's
    /// sequences must start above these, not only above the rows copied.
    public func sequences() throws -> [String: Int64] {
        try queue.read { db in
            var sequences: [String: Int64] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, seq FROM sqlite_sequence") {
                sequences[row["name"]] = row["seq"]
            }
            return sequences
        }
    }

    /// Reads `table` in its primary key's order, `size` rows at a time, handing each batch to `body` before the
    /// next is read: memory holds one batch, however large the table.
    ///
    /// Each batch is its own read, after the last key of the one before (keyset paging: every batch costs the
    /// same, where OFFSET would cost more for each). The caller keeps writers away meanwhile (the database lock).
    public func batches(
        of table: String, size: Int, _ body: (TransferBatch) async throws -> Void
    ) async throws {
        let layout = try columns(of: table)
        let names = layout.map { $0.name }
        var after: [DatabaseValue]?
        while true {
            let (rows, last) = try read(table, columns: layout, after: after, limit: size)
            guard !rows.isEmpty else { return }
            try await body(TransferBatch(table: table, columns: names, rows: rows))
            guard rows.count == size else { return }
            after = last
        }
    }

    /// The columns of `table`, in the order every batch's rows hold their values.
    public func columnNames(of table: String) throws -> [String] {
        try columns(of: table).map { $0.name }
    }

    /// The columns of `table` with the way each is read.
    private func columns(of table: String) throws -> [(name: String, kind: ColumnKind)] {
        try queue.read { db in
            try db.columns(in: table).map { ($0.name, ColumnKind(declaredType: $0.type)) }
        }
    }

    /// At most `limit` rows of `table` after the key `after` (from the first without one), and the last row's key.
    /// Synchronous on purpose: GRDB's async `read` would take an escaping closure.
    private func read(
        _ table: String, columns: [(name: String, kind: ColumnKind)], after: [DatabaseValue]?, limit: Int
    ) throws -> (rows: [[TransferValue]], last: [DatabaseValue]?) {
        let keys = Self.withoutRowID[table] ?? ["rowid"]
        let keyList = keys.joined(separator: ", ")  // fixed names; quoted, "rowid" would name no column
        var sql =
            "SELECT \(keyList), \(columns.map { $0.name.quotedDatabaseIdentifier }.joined(separator: ", ")) "
            + "FROM \(table.quotedDatabaseIdentifier)"
        if after != nil { sql += " WHERE (\(keyList)) > (\(keys.map { _ in "?" }.joined(separator: ", ")))" }
        sql += " ORDER BY \(keyList) LIMIT \(limit)"
        return try queue.read { db in
            var rows: [[TransferValue]] = []
            var last: [DatabaseValue]?
            let cursor = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(after ?? []))
            while let row = try cursor.next() {
                last = (0..<keys.count).map { row[$0] as DatabaseValue }
                rows.append(
                    try columns.enumerated().map { index, column in
                        try column.kind.value(row, at: keys.count + index)
                    })
            }
            return (rows, last)
        }
    }

    /// Closes the file.
    public func close() throws {
        try queue.close()
    }
}

/// How a column's values are read, from the type its migration declared (GRDB writes `DATETIME` for dates).
private enum ColumnKind {
    case integer, real, text, blob, date

    init(declaredType: String) {
        let type = declaredType.uppercased()
        if type.contains("DATE") {
            self = .date
        } else if type.contains("INT") {
            self = .integer
        } else if type.contains("BLOB") {
            self = .blob
        } else if type.contains("DOUB") || type.contains("REAL") || type.contains("FLOA") {
            self = .real
        } else {
            self = .text
        }
    }

    /// The value at `index` of `row`; dates through GRDB's own decoding of its stored text.
    func value(_ row: Row, at index: Int) throws -> TransferValue {
        // One fetch of the stored value, then its storage as it is: decoding through the typed subscripts read
        // every value twice and cost a third of the copy's time.
        let stored = row[index] as DatabaseValue
        switch (self, stored.storage) {
        case (_, .null): return .null
        case (.date, _):
            // GRDB's own reading of the text it stores; one it cannot read must not become a silent NULL.
            guard let date = Date.fromDatabaseValue(stored) else {
                throw DatabaseFile.Failure(description: "an unreadable timestamp: \(stored)")
            }
            return .date(date)
        case (.real, .int64(let integer)): return .real(Double(integer))
        case (_, .int64(let integer)): return .integer(integer)
        case (_, .double(let real)): return .real(real)
        case (_, .string(let text)): return .text(text)
        case (_, .blob(let data)): return .blob(data)
        }
    }
}
