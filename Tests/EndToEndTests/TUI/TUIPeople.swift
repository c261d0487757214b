import Foundation
import JSONRPC
import TestSupport

/// A daemon and the people of a TUI test: each signs up with twctl and keeps their own twctl session folder;
/// `alice` is the one at the screen.
struct TUIPeople {
    /// One account with its twctl configuration folder.
    struct Person {
        let name: String
        let config: String
        let socket: String

        /// Runs twctl as this person; fails the test's expectation through the returned status.
        @discardableResult
        func twctl(_ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String, error: String)
        {
            try runProduct(
                "twctl", arguments,
                environment: ["TWITTERD_SOCKET": socket, "XDG_CONFIG_HOME": config, "NO_COLOR": "1"], input: input)
        }

        /// Posts `text`; returns the new tweet's id.
        @discardableResult
        func post(_ text: String) throws -> Int64 {
            let answer = try twctl(["--json", "post", text])
            let tweet = try JSONParser().parse(answer.output.trimmingCharacters(in: .whitespacesAndNewlines))
            guard case .number(let id)? = tweet["id"], let value = Int64(id.text) else {
                throw PostFailed(output: answer.output + answer.error)
            }
            return value
        }
    }

    let daemon: DaemonProcess
    /// The socket the screen and everyone use: the first daemon's, which stays when it is restarted.
    let socket: String
    let alice: Person
    let bob: Person

    init() async throws {
        daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing + DaemonProcess.unlimitedWrites)
        socket = daemon.ownSocketPath
        alice = try Self.signUp("alice", socket: socket)
        bob = try Self.signUp("bob", socket: socket)
    }

    private static func signUp(_ name: String, socket: String) throws -> Person {
        let person = Person(name: name, config: try TemporaryDirectory.make(prefix: "twctl-\(name)"), socket: socket)
        let answer = try person.twctl(
            ["signup", "--email", "\(name)@example.com", "--username", name, "--password-stdin"],
            input: "correct horse battery\n")
        guard answer.status == 0 else { throw SignupFailed(output: answer.error) }
        return person
    }

    struct PostFailed: Error {
        let output: String
    }

    struct SignupFailed: Error {
        let output: String
    }

    /// Opens `twctl tui` as alice and waits for her home screen.
    func aliceScreen(width: Int = 100, height: Int = 30, extra: [String: String] = [:]) throws -> TmuxPane {
        let pane = try TmuxPane(tui: socket, config: alice.config, extra: extra, width: width, height: height)
        try pane.waitFor(" @alice · ")
        return pane
    }
}
