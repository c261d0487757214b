import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// Issue #48, item 7, over the real socket (SQLite, and two daemons sharing PostgreSQL under with-postgres.sh):
/// 1,000 pipelined `users.block`/`users.unblock` and 3,000 `bookmarks.add`/`remove` all went through, each a
/// synced write, each block withdrawing every daemon's read lease. Past its rate, every one is refused with
/// -32006, `data.kind` `rate_limited` and `data.retryAfter`, and changes nothing.
@Suite(.serialized) struct WriteRateTests {
    static let configuration = DaemonProcess.fastHashing + "[rates]\nblocks = \"20/1d\"\nbookmarks = \"30/1d\"\n"

    @Test func aPipelinedStormOfBlocksAndUnblocksIsRefusedPastItsRate() async throws {
        let daemon = try await DaemonProcess(configuration: Self.configuration)
        let token = try await Self.signUp("stormer", on: daemon)
        _ = try await Self.signUp("target", on: daemon)
        let lines = (1...200).map { index in
            let method = index.isMultiple(of: 2) ? "users.unblock" : "users.block"
            return #"{"jsonrpc":"2.0","method":"\#(method)","params":{"username":"target"},"id":\#(index)}"#
        }
        let answers = try Self.pipeline(lines, token: token, on: daemon.ownSocketPath)
        Self.expectRefusedPast(20, answers)
        // The 20 that passed ended on an unblock: no block stands, whatever the 180 refused asked. (On the daemon
        // that served the storm: another learns of it through the commit log, in its own time.)
        try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { stormer in
            try await stormer.logIn(token: token)
            #expect(try await stormer.call("users.get", ["username": "target"])["blockedByMe"] == false)
            let refused = try #require(try await stormer.callError("users.block", ["username": "target"]))
            #expect(refused.code == -32006, "still empty on a new connection: the bucket is the account's")
        }
    }

    @Test func aPipelinedStormOfBookmarksIsRefusedPastItsRate() async throws {
        let daemon = try await DaemonProcess(configuration: Self.configuration)
        let token = try await Self.signUp("hoarder", on: daemon)
        let tweet = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { hoarder in
            try await hoarder.logIn(token: token)
            return try #require(Int64(json: try await hoarder.call("tweets.post", ["text": "keep me"])["id"] ?? .null))
        }
        let lines = (1...300).map { index in
            let method = index.isMultiple(of: 2) ? "bookmarks.remove" : "bookmarks.add"
            return #"{"jsonrpc":"2.0","method":"\#(method)","params":{"id":\#(tweet)},"id":\#(index)}"#
        }
        Self.expectRefusedPast(30, try Self.pipeline(lines, token: token, on: daemon.socketPath))
        // Other writes have their own buckets.
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { hoarder in
            try await hoarder.logIn(token: token)
            _ = try await hoarder.call("tweets.like", ["id": .number(JSONNumber(Int(tweet)))])
        }
    }

    /// Signs `username` up on its own connection; its session's token.
    static func signUp(_ username: String, on daemon: DaemonProcess) async throws -> String {
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.signUp(email: "\(username)@example.com", username: username)
        }
    }

    /// Sends a token login and `lines` in one write, then reads every answer, in order.
    static func pipeline(_ lines: [String], token: String, on socketPath: String) throws -> [JSONValue] {
        let socket = try RawSocket(path: socketPath)
        let login =
            #"{"jsonrpc":"2.0","method":"auth.login","params":{"provider":"token","credentials":{"token":"\#(token)"}},"id":0}"#
        #expect(socket.send(([login] + lines).joined(separator: "\n") + "\n"))
        let loggedIn = try JSONParser().parse(Array(try #require(socket.readLine()).utf8))
        #expect(loggedIn["result"] != nil, "\(loggedIn)")
        return try lines.indices.map { _ in try JSONParser().parse(Array(try #require(socket.readLine()).utf8)) }
    }

    /// The first `allowed` answers are results; every later one is -32006 with `retryAfter`, the documented error.
    static func expectRefusedPast(_ allowed: Int, _ answers: [JSONValue]) {
        for (index, answer) in answers.enumerated() {
            #expect(answer["id"] == .number(JSONNumber(index + 1)))
            if index < allowed {
                #expect(answer["result"] != nil, "call \(index + 1) is within the rate: \(answer)")
                continue
            }
            #expect(answer["error"]?["code"] == .number(JSONNumber(-32006)), "call \(index + 1): \(answer)")
            #expect(answer["error"]?["data"]?["kind"] == .string("rate_limited"))
            guard case .number(let seconds)? = answer["error"]?["data"]?["retryAfter"], let wait = Int(seconds.text)
            else {
                Issue.record("call \(index + 1) has no retryAfter: \(answer)")
                continue
            }
            // One comes back every 86,400 / allowed seconds.
            #expect((1...(86_400 / allowed)).contains(wait), "call \(index + 1): \(wait)")
        }
    }
}
