import Foundation
import PostgresNIO
import TwitterCore

// @MemberwiseInit
/// Writes another store's rows into an empty PostgreSQL database, for `twitterd migrate-data`: ids as they
/// were, then every id sequence moved past them.
///
/// Each table is copied with COPY (see `CopyText`), and everything in one transaction. A copy that fails or is interrupted halfway leaves the database as
/// empty as it found it, so the operator fixes the cause and runs the same command again; and no daemon on the
/// database can see half the accounts or a tweet without its likes.
public struct PostgresImport: Sendable {
    let store: PostgresStore

    /// Checks that the database holds no accounts and no tweets, runs `body` with a session that inserts
    /// batches, moves every `id` sequence of `tables` (the same names in both stores) past the largest id copied and past the
    /// table's entry in `usedIDs` (the highest id the source ever gave out), and commits; rolls
    /// everything back when anything throws. Throws `TargetNotEmpty` when there is data already.
    public func run<Result: Sendable>(
        tables: [String], usedIDs: [String: Int64] = [:], _ body: @escaping @Sendable (Session) async throws -> Result
    ) async throws -> Result {
        try await Self.describingServerErrors {
            try await store.transaction { connection in
                // Checked in the transaction that copies: merging two services' ids is not what this does.
                let users = try await connection.value("SELECT count(*) FROM users", as: Int64.self) ?? 0
                let tweets = try await connection.value("SELECT count(*) FROM tweets", as: Int64.self) ?? 0
                guard users == 0, tweets == 0 else { throw TargetNotEmpty(users: Int(users), tweets: Int(tweets)) }
                let result = try await body(Session(connection: connection))
                for table in tables {
                    try await Self.resetSequence(
                        of: table, past: usedIDs[table] ?? 0, on: connection)
                }
                return result
            }
        }
    }

    /// Runs `body`, turning a PSQLError, whose description hides the server's message, into an `ImportFailure`
    /// that says it: the operator needs it to fix the cause.
    static func describingServerErrors<Result>(
        in table: String? = nil, _ body: () async throws -> Result
    ) async throws -> Result {
        do {
            return try await body()
        } catch let error as PSQLError {
            let message = error.serverInfo?[.message] ?? "\(error.code)"
            let detail = error.serverInfo?[.detail].map { " (\($0))" } ?? ""
            throw ImportFailure(description: (table.map { "copying \($0): " } ?? "") + message + detail)
        }
    }

    /// Moves the sequence behind `table.id`, if it has one, past the largest id and past `used`, so the next row
    /// gets a higher id than any the source gave out (a deleted tweet's id is not given out again); an empty
    /// table that never had a row starts at 1. Tables without an `id` column (peer links, throttles) and those
    /// whose id is no serial (tombstones keep their tweet's) have no sequence and are left alone.
    static func resetSequence(of table: String, past used: Int64, on connection: PostgresConnection) async throws {
        let sequence = try await connection.value(
            """
            SELECT pg_get_serial_sequence(quote_ident(table_name), 'id') FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = \(table) AND column_name = 'id'
            """, as: String.self)
        guard let sequence else { return }
        try await connection.run(
            PostgresQuery(
                unsafeSQL: """
                    SELECT setval($1::regclass, greatest(coalesce(max(id), 0), $2, 1), greatest(coalesce(max(id), 0), $2) > 0)
                    FROM "\(table)"
                    """, binds: Self.bindings(sequence, used)))
    }

    /// `sequence` and `used` as the parameters $1 and $2.
    private static func bindings(_ sequence: String, _ used: Int64) -> PostgresBindings {
        var binds = PostgresBindings()
        binds.append(sequence)
        binds.append(used)
        return binds
    }

    /// How many rows each of `tables` (the same names in both stores) holds now, keyed by those names.
    public func counts(of tables: [String]) async throws -> [String: Int] {
        try await Self.describingServerErrors {
            try await store.read { connection in
                var counts: [String: Int] = [:]
                for table in tables {
                    let name = table
                    counts[table] = Int(
                        try await connection.value(
                            PostgresQuery(unsafeSQL: "SELECT count(*) FROM \"\(name)\""), as: Int64.self)
                            ?? 0)
                }
                return counts
            }
        }
    }

    /// The open transaction of `run`.
    public struct Session: Sendable {
        let connection: PostgresConnection

        /// Copies one table with one `COPY … FROM STDIN`: `produce` is handed a function that sends rows (each
        /// with one value per column of `columns`, SQLite names), and the copy ends when `produce` returns. Ids
        /// are copied as they are; the generated search column fills itself.
        public func copy(
            table: String, columns: [String],
            _ produce: (_ send: ([[TransferValue]]) async throws -> Void) async throws -> Void
        ) async throws {
            // Names come from the exporter's fixed list, never from input.
            try await PostgresImport.describingServerErrors(in: table) {
                try await connection.copyFrom(
                    table: table, columns: columns,
                    logger: PostgresConnection.quiet
                ) { writer in
                    try await produce { rows in
                        var buffer = ByteBuffer()
                        CopyText.append(rows, to: &buffer)
                        try await writer.write(buffer)
                    }
                }
            }
        }
    }

    /// A batch the server refused, with its message.
    public struct ImportFailure: Error, CustomStringConvertible {
        /// The table and the server's message.
        public let description: String
    }

    /// The refusal of a database that already holds accounts or tweets.
    public struct TargetNotEmpty: Error, CustomStringConvertible {
        /// Rows in `users`.
        public let users: Int
        /// Rows in `tweets`.
        public let tweets: Int

        /// One sentence for the operator.
        public var description: String {
            "the target database is not empty (\(users) users, \(tweets) tweets): migrate-data copies into an "
                + "empty database only"
        }
    }
}
