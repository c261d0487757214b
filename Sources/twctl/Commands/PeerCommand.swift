import ArgumentParser
import Foundation
import JSONRPC
import TwitterAPI

/// `twctl peer link|list|unlink`.
struct PeerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peer", abstract: "Let your local user log in without a password (`twctl login --peer`).",
        subcommands: [Link.self, List.self, Unlink.self]
    )

    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Link your local uid to this account.",
            discussion: "Asks for the account's password: the uid then logs in with no secret at all.")

        @OptionGroup var options: GlobalOptions
        @Flag(help: "Read the password from standard input.") var passwordStdin = false

        func run() async throws {
            let password = try Credentials.password(fromStandardInput: passwordStdin)
            try await options.callAndPrint(API.Auth.linkPeer, .init(password: password)) { linked, output in
                output.note("uid \(linked.uid) now logs in as @\(linked.username)")
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Every local uid that logs in as this account, and since when.")

        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await options.callAndPrint(API.Auth.peerLinks) { links, output in
                if links.links.isEmpty { return output.note("No uid is linked.") }
                for link in links.links {
                    let since = link.linkedAt.map { "  linked \(Timestamp.string(from: $0))" } ?? ""
                    print("uid \(link.uid)\(since)")
                }
            }
        }
    }

    struct Unlink: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove the link of your local uid, or of any uid linked to this account.")

        @OptionGroup var options: GlobalOptions
        @Option(help: "The uid to unlink (see `twctl peer list`); your own when absent.") var uid: UInt32?

        func run() async throws {
            try await options.callAndPrint(API.Auth.unlinkPeer, .init(uid: uid)) { unlinked, output in
                output.note(unlinked.unlinked ? "Unlinked." : "There was no link.")
            }
        }
    }
}
