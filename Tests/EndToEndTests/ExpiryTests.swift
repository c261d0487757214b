import Foundation
import GRDB
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// A login ends at its credential's expiry on a connection that only listens, told as a revocation is: one
/// `auth.revoked` line with reason `expired`, no message or notification after it, -32001 from then on.
@Suite(.serialized) struct ExpiryTests {
    /// Moves the expiry of every personal token to `seconds` from now, in the daemon's own database:
    /// `expiresInDays` counts whole days, and a test cannot wait one.
    static func expirePersonalTokens(inSeconds seconds: Int, on daemon: DaemonProcess) async throws {
        if let url = daemon.databaseURL {
            try TestPostgres.runSQL(
                "UPDATE tokens SET expires_at = now() + interval '\(seconds) seconds' WHERE kind = 'personal'",
                in: url)
        } else {
            // The daemon holds the database open: wait for its writer rather than fail on a busy lock.
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            let database = try DatabaseQueue(path: daemon.databasePath, configuration: configuration)
            try await database.write { db in
                try db.execute(
                    sql: "UPDATE tokens SET expires_at = ? WHERE kind = 'personal'",
                    arguments: [Date().addingTimeInterval(TimeInterval(seconds))])
            }
        }
    }

    @Test func aPersonalTokenListeningToMessagesAndNotificationsIsCutOffAtItsExpiry() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
            _ = try await alice.call("profile.update", ["messagesFrom": "everyone"])
            let created = try await alice.call(
                "tokens.create", ["name": "listener", "password": "correct horse battery", "expiresInDays": 1])
            guard case .string(let token)? = created["token"] else {
                throw ClientError.invalidResponse("\(created)")
            }
            try await Self.expirePersonalTokens(inSeconds: 5, on: daemon)

            let listener = try RawSocket(path: daemon.socketPath)
            listener.send(
                #"{"jsonrpc":"2.0","method":"auth.login","params":\#(RevocationTests.tokenCredentials(token)),"id":1}"#
                    + "\n")
            let login = try JSONParser().parse(try #require(listener.readLine()))
            #expect(login["result"]?["user"] != nil, "\(login)")
            listener.send(#"{"jsonrpc":"2.0","method":"messages.subscribe","id":2}"# + "\n")
            #expect(listener.readLine()?.contains(#""id":2"#) == true)
            listener.send(#"{"jsonrpc":"2.0","method":"notifications.subscribe","id":3}"# + "\n")
            #expect(listener.readLine()?.contains(#""id":3"#) == true)

            // Before the expiry, bob's message and mention reach the listener.
            try await RPCConnection.withConnection(socketPath: daemon.socketPath) { bob in
                try await bob.signUp(email: "bob@example.com", username: "bob")
                _ = try await bob.call("messages.send", ["to": ["alice"], "text": "before"])
                _ = try await bob.call("tweets.post", ["text": "@alice before"])
            }
            var before: [String] = []
            while before.count < 2, let line = listener.readLine() {
                if line.contains("auth.revoked") { break }
                before.append(line)
            }
            #expect(before.contains { $0.contains("messages.new") }, "\(before)")
            #expect(before.contains { $0.contains("notifications.new") }, "\(before)")

            // Nothing is sent on the connection: the expiry alone ends it. The daemon reads nothing meanwhile.
            let notice = try JSONParser().parse(try #require(listener.readLine()))
            #expect(notice["method"] == "auth.revoked", "\(notice)")
            #expect(notice["params"]?["reason"] == "expired")

            try await RPCConnection.withConnection(socketPath: daemon.socketPath) { bob in
                try await bob.logIn(email: "bob@example.com")
                _ = try await bob.call("messages.send", ["to": ["alice"], "text": "after"])
                _ = try await bob.call("tweets.post", ["text": "@alice after"])
            }
            listener.send(#"{"jsonrpc":"2.0","method":"auth.whoami","id":4}"# + "\n")
            let answer = try JSONParser().parse(try #require(listener.readLine()))
            #expect(answer["id"] == 4, "no message or notification may follow auth.revoked: \(answer)")
            #expect(answer["error"]?["code"] == -32001)
            #expect(answer["error"]?["data"]?["reason"] == "expired")
            // Alice's own password login rests on no expiring token, and stays.
            #expect(try await alice.call("auth.whoami")["user"]?["username"] == "alice")
        }
    }
}
