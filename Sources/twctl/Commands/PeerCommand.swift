import ArgumentParser
import JSONRPC

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
            let result = try await DaemonConnection.run(options, login: .required) { connection in
                try await connection.call("auth.linkPeer")
            }
            if options.json { return Output(options: options).json(result) }
            Output(options: options).note(
                "uid \(result["uid"]?.stringValue ?? "?") now logs in as @\(result["username"]?.stringValue ?? "?")")
        }
    }

    struct Unlink: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove the link of your local uid.")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let result = try await DaemonConnection.run(options, login: .required) { connection in
                try await connection.call("auth.unlinkPeer")
            }
            if options.json { return Output(options: options).json(result) }
            Output(options: options).note(result["unlinked"] == true ? "Unlinked." : "There was no link.")
        }
    }
}
