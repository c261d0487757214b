import ArgumentParser
import JSONRPC
import TwitterAPI

/// `twctl logout`.
struct Logout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "End the session and forget it.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        defer { try? SessionFile.standard.remove(for: options.socketPath) }
        guard SessionFile.standard.entry(for: options.socketPath) != nil else {
            return Output(options: options).note("Not logged in.")
        }
        let result = try await DaemonConnection.run(options, login: .required) { connection in
            try await connection.answer(API.Auth.logout)
        }
        if options.json { return Output(options: options).json(result.json) }
        Output(options: options).note("Logged out.")
    }
}

/// `twctl whoami`.
struct WhoAmI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show who you are logged in as.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let (answer, unread) = try await DaemonConnection.run(options, login: .required) { connection in
            (try await connection.answer(API.Auth.whoami), try await connection.call(API.Notifications.unreadCount))
        }
        if options.json { return Output(options: options).json(answer.json) }
        let whoami = answer.result
        print(
            "@\(whoami.user.username) <\(whoami.user.email)> via \(whoami.provider)"
                + (whoami.role == .admin ? " · admin" : ""))
        print(Output.unread(unread.unread))
        if let expires = whoami.expiresAt {
            Output(options: options).note("session expires \(Timestamp.string(from: expires))")
        }
    }
}
