import ArgumentParser
import Foundation
import JSONRPC
import TwitterAPI

/// `twctl login`.
struct Login: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Log in; later commands resume the session.",
        discussion: "With a password by default, a token from standard input, or as the local user (--peer)."
    )

    @OptionGroup var options: GlobalOptions

    @Option(help: "Your e-mail address (prompted for on a terminal).")
    var email: String?

    @Flag(help: "Read the password from standard input instead of prompting.")
    var passwordStdin = false

    @Flag(help: "Read a personal access token (twp_…) from standard input.")
    var tokenStdin = false

    @Flag(help: "Log in as the account linked to your local user (see `twctl peer link`).")
    var peer = false

    func validate() throws {
        let ways = [passwordStdin, tokenStdin, peer].filter { $0 }.count
        guard ways <= 1 else { throw ValidationError("Choose one of --password-stdin, --token-stdin and --peer.") }
        if (tokenStdin || peer) && email != nil { throw ValidationError("--email goes with a password login only.") }
    }

    func run() async throws {
        let params: API.Auth.LoginParams
        if peer {
            params = .init(provider: "peer", credentials: [:])
        } else if tokenStdin {
            let token = Terminal.readAllInput().trimmingCharacters(in: .whitespacesAndNewlines)
            params = .init(provider: "token", credentials: ["token": .string(token)])
        } else {
            let email = try Credentials.value(email, prompt: "E-mail: ", flag: "--email")
            let password = try Credentials.password(fromStandardInput: passwordStdin)
            params = .init(
                provider: "password", credentials: ["email": .string(email), "password": .string(password)])
        }
        try await options.logIn(API.Auth.login, params, saying: "Logged in as")
    }
}

extension GlobalOptions {
    /// Logs in, or signs up, with `method`; keeps the session for later commands and prints `saying` with the
    /// username.
    func logIn<Params>(_ method: RPCMethod<Params, API.Auth.LoginResult>, _ params: Params, saying: String)
        async throws
    {
        try await callAndPrint(
            login: .none,
            { connection in
                let answer = try await connection.answer(method, params)
                try DaemonConnection.saveSession(answer.result, options: self)
                return answer
            }
        ) { login, output in output.note("\(saying) @\(login.user.username)") }
    }
}
