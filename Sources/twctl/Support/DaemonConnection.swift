import ArgumentParser
import Foundation
import Glibc
import JSONRPC
import TwitterAPI
import TwitterClient
import TwitterTUI

/// Opens a connection for one command, resumes the saved session when the command needs one, and turns
/// every failure into a message on stderr and a sysexits status.
enum DaemonConnection {
    enum Login {
        /// The command works without logging in.
        case none
        /// The command needs the saved session.
        case required
        /// Resume the saved session if there is one (`twctl call`).
        case ifSaved
    }

    static func run<Result: Sendable>(
        _ options: GlobalOptions, login: Login, _ body: (RPCConnection) async throws -> Result
    ) async throws -> Result {
        let socket = options.socketPath
        do {
            // For people, every text another account wrote is shown with its control characters visible, never
            // obeyed by the terminal; under --json the answer is printed as JSON, which escapes them.
            let reading: (@Sendable (JSONValue) -> JSONValue)? =
                options.json ? nil : { @Sendable value in VisibleText.shown(value) }
            return try await RPCConnection.withConnection(socketPath: socket, reading: reading) { connection in
                if login != .none { try await resume(connection, socket: socket, required: login == .required) }
                return try await body(connection)
            }
        } catch ClientError.cannotConnect(let path, let code, let reason) {
            if code == EACCES {
                Output.printError("permission denied on \(path): add your user to the twitterd group")
                throw ExitStatus.noPermission
            }
            Output.printError(
                "cannot connect to twitterd at \(path): \(reason) (is the daemon running? try `systemctl start twitterd`)"
            )
            throw ExitStatus.unavailable
        } catch ClientError.remote(let error) {
            Output.printError(error)
            throw ExitStatus.forErrorCode(error.code)
        } catch ClientError.connectionClosed {
            Output.printError("twitterd closed the connection before answering")
            throw ExitStatus.unavailable
        } catch ClientError.invalidResponse(let detail) {
            Output.printError("unexpected answer from twitterd: \(detail)")
            throw ExitStatus.software
        }
    }

    private static func resume(_ connection: RPCConnection, socket: String, required: Bool) async throws {
        guard let saved = SessionFile.standard.entry(for: socket) else {
            guard !required else {
                Output.printError("You are not logged in. Run `twctl login`.")
                throw ExitStatus.noPermission
            }
            return
        }
        do {
            _ = try await connection.call(
                API.Auth.login, .init(provider: "token", credentials: ["token": .string(saved.token)]))
        } catch ClientError.remote(let error) where ErrorCodes.kind(of: error.code) == .invalidCredentials {
            try? SessionFile.standard.remove(for: socket)
            Output.printError("Your session has expired. Run `twctl login`.")
            throw ExitStatus.noPermission
        }
    }

    /// Keeps the session of a login or signup answer for later commands.
    static func saveSession(_ login: API.Auth.LoginResult, options: GlobalOptions) throws {
        try SessionFile.standard.save(
            SessionFile.Entry(token: login.session.token, username: login.user.username), for: options.socketPath)
    }
}
