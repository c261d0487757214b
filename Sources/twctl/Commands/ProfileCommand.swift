import ArgumentParser
import Foundation
import JSONRPC
import TwitterAPI

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
            try await options.callAndPrint(API.Profiles.get, .init(username: username)) { profile, _ in
                for (key, value) in Self.rows(profile) {
                    guard let value else { continue }
                    print("\(key.padding(toLength: 10, withPad: " ", startingAt: 0)) \(value)")
                }
            }
        }

        /// The fields to show, in the profile's order; a field not set, or not shown to the caller, is nil.
        static func rows(_ result: API.Profiles.ProfileResult) -> [(String, String?)] {
            switch result {
            case .own(let profile):
                [
                    ("username", profile.username), ("email", profile.email), ("firstName", profile.firstName),
                    ("lastName", profile.lastName), ("age", profile.age.map(String.init)), ("bio", profile.bio),
                    ("version", String(profile.version)), ("updatedAt", Timestamp.string(from: profile.updatedAt)),
                    ("web", profile.webVisible ? "on (/@\(profile.username))" : "off"),
                ]
            case .other(let profile):
                [
                    ("username", profile.username), ("firstName", profile.firstName),
                    ("lastName", profile.lastName), ("bio", profile.bio),
                ]
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

        @Flag(
            inversion: .prefixedNo,
            help: "Show your profile and tweets on the public web pages (/@you), or keep them off (--no-web).")
        var web: Bool?

        func run() async throws {
            let params = API.Profiles.UpdateParams(
                firstName: firstName, lastName: lastName, email: email, age: age, username: username, bio: bio,
                currentPassword: email == nil ? nil : try Credentials.password(fromStandardInput: passwordStdin),
                webVisible: web)
            try await options.callAndPrint(API.Profiles.update, params) { updated, _ in
                guard !updated.changed.isEmpty else { return print("No changes") }
                print("Changed: " + updated.changed.joined(separator: ", "))
            }
        }
    }
}
