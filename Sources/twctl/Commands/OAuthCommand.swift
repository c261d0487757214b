import ArgumentParser
import JSONRPC
import TwitterAPI

/// `twctl oauth authorize CLIENT_ID`: the code of OAuth's code flow, for Mastodon clients that only do that flow.
struct OAuthCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "oauth", abstract: "Authorize Mastodon clients (OAuth apps) to use your account.",
        subcommands: [Authorize.self]
    )

    struct Authorize: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Authorize an app: prints a code to paste into the client, redeemable once within ten minutes.",
            discussion:
                "The client shows its client id on the page it opens (/oauth/authorize?client_id=...). Run this logged in with your password or as a peer, not with a token."
        )

        @OptionGroup var options: GlobalOptions

        @Argument(help: "The app's client id.")
        var clientID: String

        @Option(help: "Space-separated scopes to grant, within the app's (read when absent).")
        var scope: String?

        @Option(help: "One of the app's redirect URIs (its first when absent).")
        var redirectURI: String?

        func run() async throws {
            let params = API.OAuth.AuthorizeParams(clientId: clientID, scope: scope, redirectUri: redirectURI)
            try await options.callAndPrint(API.OAuth.authorize, params) { authorization, output in
                print(authorization.code)
                output.note(
                    "Authorized \"\(authorization.app)\" for \(authorization.scope): paste the code into the client; it works once, within ten minutes."
                )
            }
        }
    }
}
