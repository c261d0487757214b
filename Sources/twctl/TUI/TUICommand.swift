import ArgumentParser
import Foundation
import JSONRPC
import TwitterAPI
import TwitterClient

/// `twctl tui`: the whole service in one live screen.
struct TUICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui",
        abstract:
            "A full-screen client: timelines, notifications, threads, profiles and search, live; ? lists the keys.",
        discussion: """
            Opens on your home timeline (everyone's until you follow someone), logged in as twctl is; when you are \
            not, it asks for your e-mail and password first. It needs a terminal of at least 80 × 24; NO_COLOR \
            turns colour off.
            """
    )

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            Output.printError("twctl tui needs a terminal")
            throw ExitStatus.usage
        }
        if SessionFile.standard.entry(for: options.socketPath) == nil { try await logIn() }
        let noColor = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let outcome = await TUIRunner(socket: options.socketPath, noColor: noColor).run()
        switch outcome {
        case .quit: return
        case .sessionEnded(let message):
            try? SessionFile.standard.remove(for: options.socketPath)
            Output.printError(message + "; log in again with `twctl login`")
            throw ExitStatus.noPermission
        case .failed(let message):
            Output.printError(message)
            throw ExitStatus.unavailable
        }
    }

    /// Asks for e-mail and password on the terminal, as `twctl login` does, and keeps the session.
    private func logIn() async throws {
        FileHandle.standardError.write(Data("Log in to twitterd at \(options.socketPath)\n".utf8))
        let email = try Credentials.value(nil, prompt: "E-mail: ", flag: "--email")
        let password = try Credentials.password(fromStandardInput: false)
        let params = API.Auth.LoginParams(
            provider: "password", credentials: ["email": .string(email), "password": .string(password)])
        let answer = try await DaemonConnection.run(options, login: .none) { connection in
            try await connection.call(API.Auth.login, params)
        }
        try DaemonConnection.saveSession(answer, options: options)
    }
}
