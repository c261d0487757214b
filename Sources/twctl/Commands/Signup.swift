import ArgumentParser
import JSONRPC
import TwitterAPI

/// `twctl signup`.
struct Signup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Create an account and log in as it.")

    @OptionGroup var options: GlobalOptions

    @Option(help: "Your e-mail address (prompted for on a terminal).")
    var email: String?

    @Option(help: "Your username, 1 to 15 letters, digits or underscores (derived from the e-mail when absent).")
    var username: String?

    @Flag(help: "Read the password from standard input instead of prompting.")
    var passwordStdin = false

    func run() async throws {
        let email = try Credentials.value(email, prompt: "E-mail: ", flag: "--email")
        let password = try Credentials.password(fromStandardInput: passwordStdin)
        let answer = try await DaemonConnection.run(options, login: .none) { connection in
            try await connection.answer(API.Auth.signup, .init(email: email, password: password, username: username))
        }
        try DaemonConnection.saveSession(answer.result, options: options)
        if options.json { return Output(options: options).json(answer.json) }
        Output(options: options).note("Signed up and logged in as @\(answer.result.user.username)")
    }
}
