import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// Direct messages over the wire: live across the daemons of one database, and twctl's `dm`, `dms` and
/// `status`.
@Suite(.serialized) struct MessageTests {
    /// The socket of the daemon a second person talks to: the partner's when two daemons share the database.
    static func otherSocket(_ daemon: DaemonProcess) -> String {
        daemon.partner?.ownSocketPath ?? daemon.ownSocketPath
    }

    @Test func aMessageSentThroughOneDaemonArrivesLiveThroughTheOtherInOrder() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { bob in
            try await bob.signUp(email: "bob@example.com", username: "bob")
            _ = try await bob.call("profile.update", ["messagesFrom": "everyone"])
            _ = try await bob.call("messages.subscribe")
            var sent: [JSONValue] = []
            try await RPCConnection.withConnection(socketPath: Self.otherSocket(daemon)) { alice in
                try await alice.signUp(email: "alice@example.com", username: "alice")
                for index in 0..<3 {
                    let message = try await alice.call(
                        "messages.send", ["to": ["bob"], "text": .string("live \(index)")])
                    sent.append(message["id"] ?? .null)
                }
            }
            var received: [JSONValue] = []
            for await notification in bob.notifications where notification.method == "messages.new" {
                received.append(notification.params["message"]?["id"] ?? .null)
                if received.count == sent.count { break }
            }
            #expect(received == sent)
        }
    }

    @Test func twctlSendsListsReadsAndCountsMessages() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let alice = try TwctlSocialTests.Person("alice", on: daemon)
        let bob = try TwctlSocialTests.Person("bob", on: daemon)
        _ = try bob.run(["call", "profile.update", #"{"messagesFrom":"everyone"}"#])
        let sent = try alice.run(["dm", "bob", "hello bob"])
        #expect(sent.status == 0 && sent.output.contains("hello bob"), "\(sent.error)")
        let missing = try alice.run(["dm", "nobody", "hi"])
        #expect(missing.status != 0)
        #expect(try bob.run(["status"]).output.contains("1 unread message"))
        let conversations = try bob.run(["dms"]).output
        #expect(conversations.contains("@alice, @bob") && conversations.contains("1 unread"))
        let read = try bob.run(["dm", "--read", "alice"])
        #expect(read.status == 0 && read.output.contains("@alice") && read.output.contains("hello bob"))
        #expect(try bob.run(["status"]).output.contains("0 unread messages"))
        #expect(try bob.json(["dms"])["conversations"]?[0]?["unreadCount"] == 0)
    }
}
