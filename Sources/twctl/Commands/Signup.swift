import ArgumentParser
import JSONRPC

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
        var params: [String: JSONValue] = ["email": .string(email), "password": .string(password)]
        if let username { params["username"] = .string(username) }
        let result = try await DaemonConnection.run(options, login: .none) { connection in
            try await connection.call("auth.signup", .object(params))
        }
        try DaemonConnection.saveSession(from: result, options: options)
        if options.json { return Output(options: options).json(result) }
        Output(options: options).note("Signed up and logged in as @\(result["user"]?["username"]?.stringValue ?? "?")")
    }
}
