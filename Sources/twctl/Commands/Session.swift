import ArgumentParser
import JSONRPC

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
            try await connection.call("auth.logout")
        }
        if options.json { return Output(options: options).json(result) }
        Output(options: options).note("Logged out.")
    }
}

/// `twctl whoami`.
struct WhoAmI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show who you are logged in as.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let result = try await DaemonConnection.run(options, login: .required) { connection in
            try await connection.call("auth.whoami")
        }
        if options.json { return Output(options: options).json(result) }
        let user = result["user"]
        print(
            "@\(user?["username"]?.stringValue ?? "?") <\(user?["email"]?.stringValue ?? "?")> via \(result["provider"]?.stringValue ?? "?")"
        )
        if let expires = result["expiresAt"]?.stringValue {
            Output(options: options).note("session expires \(expires)")
        }
    }
}
