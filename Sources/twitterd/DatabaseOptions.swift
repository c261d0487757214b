import ArgumentParser
import Foundation
import TwitterServer

/// `--database` and `--config`, shared by the maintenance subcommands, which find the database the way the
/// daemon does: defaults, then the file, then the flag.
struct DatabaseOptions: ParsableArguments {
    @Option(help: "The SQLite database file, or a PostgreSQL URL where the command takes one (default: the daemon's).")
    var database: String?

    @Option(help: "A TOML configuration file, for the database.")
    var config: String?

    /// The configuration the daemon would serve with the same flags; a bad configuration file exits 78.
    func configuration() throws -> ServerConfiguration {
        do {
            return try StartupConfiguration.load(
                file: config, socket: nil, database: database, logLevel: nil,
                environment: ProcessInfo.processInfo.environment)
        } catch {
            throw MaintenanceFailure(exitCode: ExitCode(78), message: "configuration: \(error)")
        }
    }

    /// The SQLite file the daemon would serve with the same flags; a PostgreSQL database is refused, since the
    /// commands that ask are SQLite's own (PostgreSQL has pg_dump and pg_restore).
    func databasePath() throws -> String {
        let configuration = try configuration()
        guard configuration.database.url == nil else {
            throw MaintenanceFailure(
                "this command works on a SQLite file; for PostgreSQL use pg_dump and pg_restore (docs/OPERATIONS.md)")
        }
        return configuration.databasePath
    }
}

/// A maintenance subcommand that cannot go on: its message goes to stderr, then it exits with `exitCode`.
struct MaintenanceFailure: Error {
    /// EX_TEMPFAIL: the database is in use, try again once the daemon is stopped.
    static let busy = ExitCode(75)

    let exitCode: ExitCode
    let message: String

    init(exitCode: ExitCode = .failure, message: String) {
        self.exitCode = exitCode
        self.message = message
    }

    init(_ message: String) {
        self.init(message: message)
    }
}

extension ParsableCommand {
    /// Runs `body`, turning any error into one line on stderr, `twitterd NAME: message`, and a non-zero exit:
    /// an operator reads the reason, a script reads the status.
    func reportingFailures(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            throw reported(error)
        }
    }

    /// `reportingFailures` for an async body.
    func reportingFailures(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            throw reported(error)
        }
    }

    /// Writes `error`'s line on stderr and returns the exit code to throw in its place.
    private func reported(_ error: Error) -> Error {
        let name = Self.configuration.commandName ?? "\(Self.self)".lowercased()
        if let failure = error as? MaintenanceFailure {
            FileHandle.standardError.write(Data("twitterd \(name): \(failure.message)\n".utf8))
            return failure.exitCode
        }
        FileHandle.standardError.write(Data("twitterd \(name): \(error)\n".utf8))
        return ExitCode.failure
    }

    /// One line on stderr that does not stop the command.
    func warn(_ message: String) {
        let name = Self.configuration.commandName ?? "\(Self.self)".lowercased()
        FileHandle.standardError.write(Data("twitterd \(name): warning: \(message)\n".utf8))
    }
}
