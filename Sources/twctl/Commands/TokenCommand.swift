import ArgumentParser
import JSONRPC
import TwitterAPI

/// `twctl token create|list|revoke`.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Personal access tokens for scripts.",
        subcommands: [Create.self, List.self, Revoke.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a token; it is shown only this once.", discussion: "Asks for the account's password.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "A name to recognise it by.")
        var name: String

        @Option(help: "Days until it expires; never when absent.")
        var expiresInDays: Int?

        @Flag(help: "Read the account's password from standard input.")
        var passwordStdin = false

        func run() async throws {
            // A token outlives the session, so the daemon asks for the password, as GitHub's sudo mode does.
            let password = try Credentials.password(fromStandardInput: passwordStdin)
            let params = API.Tokens.CreateParams(name: name, expiresInDays: expiresInDays, password: password)
            try await options.callAndPrint(API.Tokens.create, params) { created, output in
                print(created.token)
                output.note("Token #\(created.id) \"\(name)\": store it now, it is not shown again.")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List your tokens (without secrets).")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await options.callAndPrint(API.Tokens.list) { tokens, output in
                guard !tokens.isEmpty else { return output.note("No tokens.") }
                for token in tokens {
                    let expires = token.expiresAt.map(Timestamp.string(from:)) ?? "never"
                    let used = token.lastUsedAt.map(Timestamp.string(from:)) ?? "never"
                    // An OAuth access token is named after its app; its scopes say what the app may do.
                    let scopes = token.scopes.map { "\tOAuth app, scopes \($0)" } ?? ""
                    print("#\(token.id)\t\(token.name)\texpires \(expires)\tused \(used)\(scopes)")
                }
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The token's id (see `twctl token list`).")
        var id: Int

        func run() async throws {
            try await options.callAndPrint(API.Tokens.revoke, .init(id: Int64(id))) { _, output in
                output.note("Revoked #\(id).")
            }
        }
    }
}
