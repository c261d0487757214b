import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import TwitterCore
import TwitterSQLite
import TwitterServer

/// Runs the daemon in the foreground until SIGTERM or SIGINT.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve requests until SIGTERM (the default).")

    @Option(help: "The Unix socket to listen on.")
    var socket: String?

    @Option(
        help: ArgumentHelp(
            "The SQLite database file, or a PostgreSQL URL (postgres://USER@HOST:PORT/DB).",
            discussion: "A password goes in [database] password_file, never in the URL."))
    var database: String?

    @Option(help: "A TOML configuration file (see docs/OPERATIONS.md).")
    var config: String?

    @Option(
        help: ArgumentHelp(
            "Serve the Mastodon API over HTTP here: unix:PATH or a loopback HOST:PORT (repeatable).",
            discussion: "Replaces [http] listen; by default http.sock beside the RPC socket."))
    var http: [String] = []

    @Option(help: "trace, debug, info, notice, warning or error.")
    var logLevel: String?

    func run() async throws {
        let settings: ServerConfiguration
        let (file, socket, database, logLevel, http) = (config, socket, database, logLevel, http)
        let load: @Sendable () throws -> ServerConfiguration = {
            try StartupConfiguration.load(
                file: file, socket: socket, database: database, logLevel: logLevel, http: http,
                environment: ProcessInfo.processInfo.environment
            )
        }
        do {
            settings = try load()
        } catch {
            FileHandle.standardError.write(Data("twitterd: configuration: \(error)\n".utf8))
            throw ExitCode(78)  // EX_CONFIG
        }
        let journal = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil
        StandardErrorLogHandler.sharedLevel.withLock { $0 = settings.logLevel }
        LoggingSystem.bootstrap { label in StandardErrorLogHandler(label: label, journal: journal) }
        let logger = Logger(label: "twitterd")
        do {
            try await Daemon(configuration: settings, reload: load, logger: logger).run()
        } catch let error as ConfigurationError {
            logger.critical("configuration: \(error)")
            throw ExitCode(78)
        } catch {
            logger.critical("cannot serve: \(error)")
            throw ExitCode.failure
        }
    }
}
