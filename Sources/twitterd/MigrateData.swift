import ArgumentParser
import Foundation
import Logging
import TwitterAssembly
import TwitterClient
import TwitterCore
import TwitterPostgres
import TwitterSQLite
import TwitterServer

/// `twitterd migrate-data`: copies a whole SQLite database into an empty PostgreSQL database.
struct MigrateData: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-data",
        abstract: "Copy a SQLite database into an empty PostgreSQL database.",
        discussion: """
            Copies every table (accounts with their password hashes, tokens, tweets, the graph, notifications, \
            moderation, rate buckets) with ids unchanged, in one transaction, then moves PostgreSQL's id sequences \
            past the copied ids and compares every table's row count on both sides: exit 1 names the tables that \
            differ. The SQLite file is opened read-only and must be at this build's schema (run `twitterd migrate` \
            on it first); its daemon must be stopped. The target is migrated and must hold no users and no \
            tweets. Every key file beside the SQLite file (token.key, and any other *.key) is carried into the \
            state folder the daemons on PostgreSQL read their keys from (--state-folder, else the one --config and \
            the environment give; the token key to [database] token_key_file when set), so every session and \
            token keeps working; a different key already there stops the command before it copies anything. See \
            "Moving from SQLite to PostgreSQL" in docs/OPERATIONS.md.
            """
    )

    @Option(help: "The SQLite database file to copy.")
    var from: String

    @Option(help: "The PostgreSQL URL to copy into (default: [database] url from --config).")
    var to: String?

    @Option(help: "A file holding the PostgreSQL role's password (default: [database] password_file).")
    var passwordFile: String?

    @Option(help: "A TOML configuration file, for [database] url, password_file and token_key_file.")
    var config: String?

    @Option(
        help: """
            The folder the daemons on PostgreSQL keep their key files in, which the source's key files are carried \
            into (default: their state folder, from --config and the environment).
            """)
    var stateFolder: String?

    @Option(help: ArgumentHelp("Rows read from SQLite and sent to PostgreSQL at a time.", visibility: .hidden))
    var batchSize = 5000

    func validate() throws {
        guard (1...100_000).contains(batchSize) else { throw ValidationError("--batch-size must be 1 to 100000") }
        if let to, !(to.hasPrefix("postgres://") || to.hasPrefix("postgresql://")) {
            throw ValidationError("--to must be a postgres:// or postgresql:// URL")
        }
    }

    func run() async throws {
        try await reportingFailures {
            let (location, password, configuration) = try target()
            guard FileManager.default.fileExists(atPath: from) else {
                throw MaintenanceFailure("no database at \(from)")
            }
            // Planned first: a key that cannot be carried stops the command before a row is copied.
            let keys = try KeyFiles.plan(
                databasePath: from,
                stateFolder: stateFolder ?? PrivateFileWriter.folder(of: configuration.databasePath),
                tokenKeyFile: configuration.database.tokenKeyFile)
            // Held while copying: a daemon serving the file would write rows the copy misses.
            let lock: DatabaseLock
            do {
                lock = try DatabaseLock(databasePath: from)
            } catch DatabaseLock.Failure.held {
                throw MaintenanceFailure(
                    exitCode: MaintenanceFailure.busy, message: "\(from) is in use; stop its daemon first")
            } catch {
                throw MaintenanceFailure("cannot lock \(from): \(error)")
            }
            defer { withExtendedLifetime(lock) {} }
            let source = try DatabaseExport.open(path: from)
            defer { try? source.close() }
            let logger = Logger(label: "twitterd.migrate-data", factory: { _ in SwiftLogNoOpLogHandler() })
            let store = try await PostgresStore.open(location, password: password, poolSize: 2, logger: logger)
            do {
                try await copy(source, into: store, location: location)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
            do {
                try keys.carry()
            } catch {
                throw MaintenanceFailure(
                    "the rows are copied, but a key file is not: \(error). Copy the source's *.key files by hand")
            }
            for move in keys.moves { print("  carried the key \(move.source) to \(move.destination)") }
        }
    }

    /// The PostgreSQL database and password: the flags, else the configuration file.
    private func target() throws -> (PostgresLocation, String?, ServerConfiguration) {
        let configuration: ServerConfiguration
        do {
            configuration = try StartupConfiguration.load(
                file: config, socket: nil, database: to, logLevel: nil, environment: ProcessInfo.processInfo.environment
            )
        } catch {
            throw MaintenanceFailure(exitCode: ExitCode(78), message: "configuration: \(error)")
        }
        guard let url = configuration.database.url else {
            throw MaintenanceFailure("no PostgreSQL database: give --to postgres://… or [database] url in --config")
        }
        return (
            try PostgresLocation(url: url),
            try OpenedDatabase.password(passwordFile ?? configuration.database.passwordFile),
            configuration
        )
    }

    /// Copies every table, then compares the counts; throws naming the tables whose counts differ.
    private func copy(_ source: DatabaseExport, into store: PostgresStore, location: PostgresLocation) async throws {
        let tables = DatabaseExport.tables
        let expected = try source.counts()
        let usedIDs = try source.sequences()
        let total = expected.values.reduce(0, +)
        let started = ContinuousClock.now
        let size = batchSize
        do {
            try await PostgresImport(store: store).run(tables: tables, usedIDs: usedIDs) { session in
                let bar = ProgressBar(label: "copying", total: total)
                var done = 0
                for table in tables {
                    try await session.copy(table: table, columns: try source.columnNames(of: table)) { send in
                        try await source.batches(of: table, size: size) { batch in
                            try await send(batch.rows)
                            done += batch.rows.count
                            bar.update(done)
                        }
                    }
                }
                bar.finish()
            }
        } catch let refusal as PostgresImport.TargetNotEmpty {
            throw MaintenanceFailure("\(location): \(refusal)")
        }
        let seconds = max((ContinuousClock.now - started) / .seconds(1), 0.001)
        print(
            "copied \(source.path) into \(location): \(total) rows in \(String(format: "%.1f", seconds)) s "
                + "(\(Int(Double(total) / seconds)) rows/s)")
        let found = try await PostgresImport(store: store).counts(of: tables)
        var differing: [String] = []
        for table in tables {
            let (sqlite, postgres) = (expected[table] ?? 0, found[table] ?? 0)
            let mark = sqlite == postgres ? "ok" : "DIFFERS"
            print("  \(table): \(sqlite) sqlite, \(postgres) postgresql, \(mark)")
            if sqlite != postgres { differing.append(table) }
        }
        guard differing.isEmpty else {
            throw MaintenanceFailure("row counts differ for \(differing.joined(separator: ", "))")
        }
        print("  every table's row count matches")
    }
}
