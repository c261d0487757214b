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
            let created = try await DaemonConnection.run(options, login: .required) { connection in
                try await connection.answer(
                    API.Tokens.create, .init(name: name, expiresInDays: expiresInDays, password: password))
            }
            if options.json { return Output(options: options).json(created.json) }
            print(created.result.token)
            Output(options: options).note(
                "Token #\(created.result.id) \"\(name)\": store it now, it is not shown again.")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List your tokens (without secrets).")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let tokens = try await DaemonConnection.run(options, login: .required) { connection in
                try await connection.answer(API.Tokens.list)
            }
            if options.json { return Output(options: options).json(tokens.json) }
            guard !tokens.result.isEmpty else { return Output(options: options).note("No tokens.") }
            for token in tokens.result {
                let expires = token.expiresAt.map(Timestamp.string(from:)) ?? "never"
                let used = token.lastUsedAt.map(Timestamp.string(from:)) ?? "never"
                print("#\(token.id)\t\(token.name)\texpires \(expires)\tused \(used)")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The token's id (see `twctl token list`).")
        var id: Int

        func run() async throws {
            let result = try await DaemonConnection.run(options, login: .required) { connection in
                try await connection.answer(API.Tokens.revoke, .init(id: Int64(id)))
            }
            if options.json { return Output(options: options).json(result.json) }
            Output(options: options).note("Revoked #\(id).")
        }
    }
}
