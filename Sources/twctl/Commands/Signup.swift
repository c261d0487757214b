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
        let params = API.Auth.SignupParams(email: email, password: password, username: username)
        try await options.logIn(API.Auth.signup, params, saying: "Signed up and logged in as")
    }
}
