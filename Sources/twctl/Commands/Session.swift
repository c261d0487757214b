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
            return options.output.note("Not logged in.")
        }
        try await options.callAndPrint(API.Auth.logout) { _, output in output.note("Logged out.") }
    }
}

/// `twctl whoami`.
struct WhoAmI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show who you are logged in as.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        var unread = 0  // asked on the same connection, printed under the account
        try await options.callAndPrint({ connection in
            let whoami = try await connection.answer(API.Auth.whoami)
            unread = try await connection.call(API.Notifications.unreadCount).unread
            return whoami
        }) { whoami, output in
            print(
                "@\(whoami.user.username) <\(whoami.user.email)> via \(whoami.provider)"
                    + (whoami.role == .admin ? " · admin" : ""))
            print(Output.unread(unread))
            if let expires = whoami.expiresAt { output.note("session expires \(Timestamp.string(from: expires))") }
        }
    }
}
