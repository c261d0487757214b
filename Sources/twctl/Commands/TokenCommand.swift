import ArgumentParser
import JSONRPC

/// `twctl token create|list|revoke`.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Personal access tokens for scripts.",
        subcommands: [Create.self, List.self, Revoke.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a token; it is shown only this once.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "A name to recognise it by.")
        var name: String

        @Option(help: "Days until it expires; never when absent.")
        var expiresInDays: Int?

        func run() async throws {
            var params: [String: JSONValue] = ["name": .string(name)]
            if let expiresInDays { params["expiresInDays"] = .number(JSONNumber(expiresInDays)) }
            let created = try await DaemonConnection.run(options, login: .required) { connection in
                try await connection.call("tokens.create", .object(params))
            }
            if options.json { return Output(options: options).json(created) }
            print(created["token"]?.stringValue ?? "")
            Output(options: options).note(
                "Token #\(created["id"]?.stringValue ?? "?") \"\(name)\": store it now, it is not shown again."
            )
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List your tokens (without secrets).")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let tokens = try await DaemonConnection.run(options, login: .required) { connection in
                try await connection.call("tokens.list")
            }
            if options.json { return Output(options: options).json(tokens) }
            guard case .array(let all) = tokens, !all.isEmpty else {
                return Output(options: options).note("No tokens.")
            }
            for token in all {
                let expires = token["expiresAt"]?.stringValue ?? "never"
                let used = token["lastUsedAt"]?.stringValue ?? "never"
                print(
                    "#\(token["id"]?.stringValue ?? "?")\t\(token["name"]?.stringValue ?? "")\texpires \(expires)\tused \(used)"
                )
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
                try await connection.call("tokens.revoke", ["id": .number(JSONNumber(id))])
            }
            if options.json { return Output(options: options).json(result) }
            Output(options: options).note("Revoked #\(id).")
        }
    }
}
