import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// Two daemons on one PostgreSQL database, each on its own socket, as on two hosts: one service.
@Suite(.serialized) struct SharedDatabaseTests {
    /// The two daemons' own sockets.
    static func pair() async throws -> (daemon: DaemonProcess, a: String, b: String) {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing, store: .postgresqlPair)
        let partner = try #require(daemon.partner)
        return (daemon, daemon.ownSocketPath, partner.ownSocketPath)
    }

    @Test func aPostThroughOneDaemonIsLiveAndReadableThroughTheOther() async throws {
        let (daemon, a, b) = try await Self.pair()
        let bobToken = try await RPCConnection.withConnection(socketPath: b) { bob in
            try await bob.signUp(email: "bob@example.com", username: "bob")
        }
        _ = try await RPCConnection.withConnection(socketPath: a) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
        }
        // Bob, on B, follows alice and listens to his home timeline and his notifications there.
        let listener = try RawSocket(path: b)
        listener.send(
            #"{"jsonrpc":"2.0","method":"auth.login","params":{"provider":"token","credentials":{"token":"\#(bobToken)"}},"id":1}"#
                + "\n")
        #expect(try JSONParser().parse(try #require(listener.readLine()))["result"]?["user"] != nil)
        listener.send(#"{"jsonrpc":"2.0","method":"users.follow","params":{"username":"alice"},"id":2}"# + "\n")
        #expect(try JSONParser().parse(try #require(listener.readLine()))["result"]?["following"] == true)
        listener.send(#"{"jsonrpc":"2.0","method":"timeline.subscribe","params":{"timeline":"home"},"id":3}"# + "\n")
        #expect(try JSONParser().parse(try #require(listener.readLine()))["result"]?["subscription"] != nil)
        listener.send(#"{"jsonrpc":"2.0","method":"notifications.subscribe","id":4}"# + "\n")
        #expect(try JSONParser().parse(try #require(listener.readLine()))["result"]?["subscription"] != nil)

        // Alice posts through A; the answer means it is committed.
        let posted = try await RPCConnection.withConnection(socketPath: a) { alice in
            try await alice.logIn(email: "alice@example.com")
            return try await alice.call("tweets.post", ["text": "hello @bob from host A"])
        }
        // Read through B at once: there already, for anyone.
        try await RPCConnection.withConnection(socketPath: b) { reader in
            try await reader.logIn(token: bobToken)
            let home = try await reader.call("timeline.home")
            #expect(home["tweets"]?[0]?["id"] == posted["id"])
            let user = try await reader.call("timeline.user", ["username": "alice"])
            #expect(user["tweets"]?[0]?["id"] == posted["id"])
        }
        // And live on B: the tweet on the home stream, the mention as a notification, once each.
        var methods: [String: JSONValue] = [:]
        while methods.count < 2, let line = listener.readLine() {
            let message = try JSONParser().parse(line)
            if case .string(let method)? = message["method"] { methods[method] = message["params"] }
        }
        #expect(methods["tweets.new"]?["tweet"]?["id"] == posted["id"])
        #expect(methods["notifications.new"]?["notification"]?["type"] == "mention")
        _ = daemon
    }

    @Test func aLogoutThroughOneDaemonCutsTheSessionOffOnTheOther() async throws {
        let (daemon, a, b) = try await Self.pair()
        try await RPCConnection.withConnection(socketPath: a) { alice in
            let token = try await alice.signUp(email: "alice@example.com", username: "alice")
            let victim = try RawSocket(path: b)
            victim.send(
                #"{"jsonrpc":"2.0","method":"auth.login","params":{"provider":"token","credentials":{"token":"\#(token)"}},"id":1}"#
                    + "\n")
            #expect(try JSONParser().parse(try #require(victim.readLine()))["result"]?["user"] != nil)
            #expect(try await alice.call("auth.logout")["loggedOut"] == true)
            let notice = try JSONParser().parse(try #require(victim.readLine()))
            #expect(notice["method"] == "auth.revoked")
            #expect(notice["params"]?["reason"] == "loggedOut")
            victim.send(#"{"jsonrpc":"2.0","method":"auth.whoami","id":2}"# + "\n")
            let answer = try JSONParser().parse(try #require(victim.readLine()))
            #expect(answer["error"]?["code"] == -32001)
        }
        _ = daemon
    }
}
