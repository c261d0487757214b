import ArgumentParser
import Foundation
import JSONRPC

/// `twctl profile` and `twctl profile set`.
struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Show or edit your profile.", subcommands: [Show.self, Set.self],
        defaultSubcommand: Show.self
    )

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show your profile, or another user's.")

        @OptionGroup var options: GlobalOptions

        @Argument(help: "Whose profile; yours when absent.")
        var username: String?

        func run() async throws {
            let params: JSONValue? = username.map { ["username": .string($0)] }
            let profile = try await DaemonConnection.run(options, login: .required) { connection in
                try await connection.call("profile.get", params)
            }
            if options.json { return Output(options: options).json(profile) }
            for key in ["username", "email", "firstName", "lastName", "age", "bio", "version", "updatedAt"] {
                guard let value = profile[key], value != .null else { continue }
                print(
                    "\(key.padding(toLength: 10, withPad: " ", startingAt: 0)) \(value.stringValue ?? value.serialized)"
                )
            }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change profile fields; prints what changed.")

        @OptionGroup var options: GlobalOptions

        @Option var firstName: String?
        @Option var lastName: String?
        @Option var email: String?
        @Option var age: Int?
        @Option var bio: String?
        @Option var username: String?

        @Flag(help: "Read the current password from standard input (needed to change the e-mail).")
        var passwordStdin = false

        func run() async throws {
            var params: [String: JSONValue] = [:]
            if let firstName { params["firstName"] = .string(firstName) }
            if let lastName { params["lastName"] = .string(lastName) }
            if let email {
                params["email"] = .string(email)
                params["currentPassword"] = .string(try Credentials.password(fromStandardInput: passwordStdin))
            }
            if let age { params["age"] = .number(JSONNumber(age)) }
            if let bio { params["bio"] = .string(bio) }
            if let username { params["username"] = .string(username) }
            let result = try await DaemonConnection.run(options, login: .required) { connection in
                try await connection.call("profile.update", .object(params))
            }
            if options.json { return Output(options: options).json(result) }
            guard case .array(let changed)? = result["changed"], !changed.isEmpty else { return print("No changes") }
            print("Changed: " + changed.compactMap(\.stringValue).joined(separator: ", "))
        }
    }
}
