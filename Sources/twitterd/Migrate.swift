import ArgumentParser
import Foundation
import Logging
import TwitterAssembly
import TwitterPostgres
import TwitterSQLite

/// `twitterd migrate`: brings the database's schema up to this build's, then exits.
struct Migrate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply the schema migrations the database lacks.",
        discussion: """
            A daemon migrates its database when it starts; this does it ahead of a rollout, for example before \
            the daemons of several hosts are restarted on a new version. On PostgreSQL the migrations run under an \
            advisory lock, so daemons and this command starting at once apply each migration once. Safe to run \
            again: a database already up to date is left alone.
            """
    )

    @OptionGroup var options: DatabaseOptions

    func run() async throws {
        let configuration = try options.configuration()
        let logger = Logger(label: "twitterd.migrate", factory: { _ in SwiftLogNoOpLogHandler() })
        do {
            if let url = configuration.database.url {
                let location = try PostgresLocation(url: url)
                let store = try await PostgresStore.open(
                    location, password: try OpenedDatabase.password(configuration.database.passwordFile),
                    poolSize: 2, migrate: false, logger: logger)
                let applied = try await store.migrate()
                let version = try await store.schemaVersion()
                await store.close()
                print("\(location): schema version \(version)" + Self.summary(applied))
            } else {
                let database = try AppDatabase.open(path: configuration.databasePath)
                try database.close()
                print("\(configuration.databasePath): schema up to date")
            }
        } catch {
            FileHandle.standardError.write(Data("twitterd migrate: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    private static func summary(_ applied: [Int]) -> String {
        applied.isEmpty ? ", nothing to apply" : ", applied " + applied.map { "v\($0)" }.joined(separator: ", ")
    }
}
