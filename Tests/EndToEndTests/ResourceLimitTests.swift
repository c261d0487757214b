import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// What one client or one local user may take of the daemon: the bytes of one line's answer, connections, signups.
@Suite(.serialized) struct ResourceLimitTests {
    @Test func aBatchOfAThousandFullPagesGetsABoundedAnswer() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing + DaemonProcess.unlimitedWrites)
        // The posts and the batch go to one daemon: its public timeline then holds all 200 at once.
        let token = try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { connection in
            let token = try await connection.signUp(email: "flood@example.com")
            let text = String(repeating: "x", count: 140)
            for _ in 0..<200 { _ = try await connection.call("tweets.post", ["text": .string(text)]) }
            return token
        }
        let socket = try RawSocket(path: daemon.ownSocketPath)
        socket.send(
            #"{"jsonrpc":"2.0","method":"auth.login","params":{"provider":"token","credentials":{"token":"\#(token)"}},"id":0}"#
                + "\n")
        #expect(socket.readLine()?.contains(#""result""#) == true)
        let members = (1...1000).map {
            #"{"jsonrpc":"2.0","method":"timeline.public","params":{"limit":200},"id":\#($0)}"#
        }
        socket.send("[" + members.joined(separator: ",") + "]\n")
        let line = try #require(socket.readLine())
        let budget = 8 << 20
        // Unbounded, the line was about 90 MiB; now the budget, one page past it, and a short error per request.
        #expect(line.utf8.count < budget + (1 << 20), "the answer was \(line.utf8.count) bytes")
        guard case .array(let answers) = try JSONParser().parse(line) else {
            Issue.record("not an array")
            return
        }
        #expect(answers.count == 1000, "one answer per request")
        #expect(answers.map { $0["id"] } == (1...1000).map { .number(JSONNumber($0)) }, "in order")
        let pages = answers.prefix { $0["result"] != nil }
        #expect(pages.count > 50, "answered up to the budget")
        #expect(
            pages.allSatisfy { page in
                if case .array(let tweets)? = page["result"]?["tweets"] { tweets.count == 200 } else { false }
            })
        for refused in answers.dropFirst(pages.count) {
            #expect(refused["error"]?["code"] == -32600)
            #expect(refused["error"]?["data"]?["limit"] == .number(JSONNumber(budget)))
        }
        try HostileInputTests.assertServing(daemon)
    }

    @Test(.enabled(if: ForeignPeer.isPossible, "changing uid needs root"))
    func oneLocalUserCannotTakeEveryConnection() async throws {
        // The per-user cap is each daemon's own: the foreign user's connections all go to one of them.
        let daemon = try await DaemonProcess(
            socketDirectory: try TemporaryDirectory.make(),
            configuration: ForeignPeer.reachableConfiguration
                + "[limits]\nmax_connections = 16\nmax_connections_per_uid = 3\n")
        let socketPath = daemon.ownSocketPath
        var held: [ForeignPeer] = []
        for _ in 0..<3 {
            let peer = try ForeignPeer(socketPath: socketPath)
            #expect(try peer.call("system.ping")["result"] == "pong")
            held.append(peer)
        }
        let refused = try ForeignPeer(socketPath: socketPath)
        let refusal = try JSONParser().parse(try #require(refused.readLine()))
        #expect(refusal["error"]?["code"] == -32008)
        #expect(refusal["error"]?["data"]?["kind"] == "unavailable")
        #expect(refusal["error"]?["data"]?["limit"] == 3)
        refused.close()
        #expect(refused.readLine() == nil, "the refused connection is closed")

        // Root is never held to the per-user cap: more connections than the foreign user's share, all served.
        let rootSockets = try (0..<4).map { _ in try RawSocket(path: socketPath) }
        for socket in rootSockets {
            socket.send(HostileInputTests.ping)
            #expect(socket.readLine() == #"{"id":"probe","jsonrpc":"2.0","result":"pong"}"#)
        }

        // A slot is given back when its connection ends.
        held.removeFirst().close()
        var served = false
        for _ in 0..<50 where !served {
            // The first line is the answer to the ping, or the refusal.
            let again = try ForeignPeer(socketPath: socketPath)
            again.send(HostileInputTests.ping)
            served = again.readLine(seconds: 10) == #"{"id":"probe","jsonrpc":"2.0","result":"pong"}"#
            again.close()
            if !served { usleep(100_000) }
        }
        #expect(served, "the foreign user's closed connection still counted")
        #expect(daemon.log.contains("connection refused: at the per-user connection limit"))
    }

    @Test(.enabled(if: ForeignPeer.isPossible, "changing uid needs root"))
    func oneLocalUserCannotSignUpInBulk() async throws {
        let daemon = try await DaemonProcess(
            socketDirectory: try TemporaryDirectory.make(),
            configuration: ForeignPeer.reachableConfiguration + DaemonProcess.fastHashing
                + "[rates]\nsignups = \"3/1h\"\n")
        // Each daemon keeps its own signup buckets: the burst goes to one of them.
        let peer = try ForeignPeer(socketPath: daemon.ownSocketPath)
        let signup = { (name: String) -> JSONValue in
            ["email": .string("\(name)@example.com"), "password": "correct horse battery", "username": .string(name)]
        }
        #expect(try peer.errorCode("auth.signup", signup("bulk1")) == nil)
        // An attempt that makes no account does not count.
        #expect(try peer.errorCode("auth.signup", signup("bulk1")) == -32005)
        var refused: [JSONValue] = []
        for index in 2...40 {
            let answer = try peer.call("auth.signup", signup("bulk\(index)"))
            if answer["error"] != nil { refused.append(answer) }
        }
        #expect(refused.count == 37, "three accounts an hour, then nothing")
        for answer in refused {
            #expect(answer["error"]?["code"] == -32006)
            guard case .number(let seconds)? = answer["error"]?["data"]?["retryAfter"], let wait = seconds.int else {
                Issue.record("no retryAfter in \(answer)")
                continue
            }
            #expect(wait > 0 && wait <= 1200)
        }
        // Root, the administrator, still signs people up.
        try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { connection in
            for index in 1...5 { try await connection.signUp(email: "root\(index)@example.com") }
        }
    }
}
