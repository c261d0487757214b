import ArgumentParser
import JSONRPC
import TwitterAPI

/// `twctl peer link|unlink`.
struct PeerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peer", abstract: "Let your local user log in without a password (`twctl login --peer`).",
        subcommands: [Link.self, Unlink.self]
    )

    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Link your local uid to this account.")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let linked = try await DaemonConnection.run(options, login: .required) { connection in
                try await connection.answer(API.Auth.linkPeer)
            }
            if options.json { return Output(options: options).json(linked.json) }
            Output(options: options).note("uid \(linked.result.uid) now logs in as @\(linked.result.username)")
        }
    }

    struct Unlink: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove the link of your local uid.")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let unlinked = try await DaemonConnection.run(options, login: .required) { connection in
                try await connection.answer(API.Auth.unlinkPeer)
            }
            if options.json { return Output(options: options).json(unlinked.json) }
            Output(options: options).note(unlinked.result.unlinked ? "Unlinked." : "There was no link.")
        }
    }
}
