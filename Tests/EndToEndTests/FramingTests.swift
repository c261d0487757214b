import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// The line protocol over a real socket: pipelining, half-close, missing newline, over-long lines, garbage.
@Suite(.serialized) struct FramingTests {
    static func ping(_ id: Int) -> String {
        #"{"jsonrpc":"2.0","method":"system.ping","id":\#(id)}"# + "\n"
    }

    @Test func pingAnswersPongExactly() async throws {
        let daemon = try await DaemonProcess()
        let socket = try RawSocket(path: daemon.socketPath)
        socket.send(Self.ping(1))
        #expect(socket.readLine() == #"{"id":1,"jsonrpc":"2.0","result":"pong"}"#)
    }

    @Test func tenThousandPipelinedRequestsAreAnsweredInOrder() async throws {
        let daemon = try await DaemonProcess()
        let socket = try RawSocket(path: daemon.socketPath)
        let count = 10_000
        let requests = (1...count).map(Self.ping).joined()
        // Written from another thread: the daemon answers while the client is still sending.
        let writer = Thread { socket.send(requests) }
        writer.start()
        for id in 1...count {
            let line = try #require(socket.readLine(), "answer \(id) missing")
            #expect(line == #"{"id":\#(id),"jsonrpc":"2.0","result":"pong"}"#)
            if line != #"{"id":\#(id),"jsonrpc":"2.0","result":"pong"}"# { return }
        }
    }

    @Test func answersAtOnceAndAnswersThatWaitKeepArrivalOrder() async throws {
        let daemon = try await DaemonProcess()
        let socket = try RawSocket(path: daemon.socketPath)
        // Pings are answered on the event loop; health (it asks the database) and batches wait in a task.
        let kinds = [
            #"{"jsonrpc":"2.0","method":"system.ping","id":ID}"#,
            #"{"jsonrpc":"2.0","method":"system.health","id":ID}"#,
            #"[{"jsonrpc":"2.0","method":"system.ping","id":ID}]"#,
            #"{"jsonrpc":"2.0","method":"system.ping","id":ID}"#,
        ]
        let count = 2_000
        let requests = (1...count).map { kinds[$0 % kinds.count].replacingOccurrences(of: "ID", with: "\($0)") + "\n" }
        let writer = Thread { socket.send(requests.joined()) }
        writer.start()
        for id in 1...count {
            let line = try #require(socket.readLine(), "answer \(id) missing")
            let answer = try JSONParser().parse(Array(line.utf8))
            let member = id % kinds.count == 2 ? answer[0] : answer
            #expect(member?["id"] == .number(JSONNumber(id)), "answer \(id) out of order: \(line)")
            if member?["id"] != .number(JSONNumber(id)) { return }
        }
    }

    @Test func halfCloseStillAnswersEverythingSent() async throws {
        let daemon = try await DaemonProcess()
        let socket = try RawSocket(path: daemon.socketPath)
        socket.send(Self.ping(1) + Self.ping(2) + Self.ping(3))
        socket.shutdownWrite()
        let lines = socket.readLinesUntilEOF()
        #expect(lines.count == 3)
        #expect(lines.last == #"{"id":3,"jsonrpc":"2.0","result":"pong"}"#)
    }

    @Test func lastLineWithoutNewlineIsAnswered() async throws {
        let daemon = try await DaemonProcess()
        let socket = try RawSocket(path: daemon.socketPath)
        socket.send(#"{"jsonrpc":"2.0","method":"system.ping","id":7}"#)
        socket.shutdownWrite()
        #expect(socket.readLinesUntilEOF() == [#"{"id":7,"jsonrpc":"2.0","result":"pong"}"#])
    }

    @Test func crlfLineEndingsAreAccepted() async throws {
        let daemon = try await DaemonProcess()
        let socket = try RawSocket(path: daemon.socketPath)
        socket.send(#"{"jsonrpc":"2.0","method":"system.ping","id":1}"# + "\r\n")
        #expect(socket.readLine() == #"{"id":1,"jsonrpc":"2.0","result":"pong"}"#)
    }

    @Test func overLongLineGetsOneErrorNamingTheLimitThenClose() async throws {
        let daemon = try await DaemonProcess(configuration: "[limits]\nmax_line_bytes = 1024\n")
        let socket = try RawSocket(path: daemon.socketPath)
        // The writer may be cut off with EPIPE once the daemon closes; that is the point.
        let writer = Thread { socket.send(String(repeating: "x", count: 64 * 1024)) }
        writer.start()
        let line = try #require(socket.readLine())
        let value = try JSONParser().parse(line)
        #expect(value["error"]?["code"] == -32600)
        #expect(value["error"]?["data"]?["limit"] == 1024)
        #expect(socket.waitForClose())
        #expect(daemon.log.contains("line longer than 1024 bytes"))
    }

    @Test func defaultLineLimitIsOneMebibyte() async throws {
        let daemon = try await DaemonProcess()
        let socket = try RawSocket(path: daemon.socketPath)
        let writer = Thread { socket.send(Array(repeating: UInt8(ascii: "["), count: 2 << 20)) }
        writer.start()
        let value = try JSONParser().parse(try #require(socket.readLine()))
        #expect(value["error"]?["data"]?["limit"] == 1_048_576)
    }

    @Test func garbageAndInvalidUTF8GetParseErrorsAndTheDaemonServesOn() async throws {
        let daemon = try await DaemonProcess()
        let socket = try RawSocket(path: daemon.socketPath)
        socket.send([0xFF, 0xFE, 0x00, 0x41, UInt8(ascii: "\n")])
        socket.send(#"{"jsonrpc":"2.0","method":"system.ping","id":"\#u{FFFF}\#u{0}"}"# + "\n")
        socket.send("\u{1}\u{2}garbage\n")
        for _ in 0..<3 {
            let value = try JSONParser().parse(try #require(socket.readLine()))
            #expect(value["error"]?["code"] == -32700)
            #expect(value["id"] == .null)
        }
        socket.send(Self.ping(4))
        #expect(socket.readLine() == #"{"id":4,"jsonrpc":"2.0","result":"pong"}"#)
        let other = try RawSocket(path: daemon.socketPath)
        other.send(Self.ping(5))
        #expect(other.readLine() == #"{"id":5,"jsonrpc":"2.0","result":"pong"}"#)
    }

    @Test func partialLineThatStallsIsClosed() async throws {
        let daemon = try await DaemonProcess(configuration: "[limits]\npartial_line_timeout_seconds = 1\n")
        let socket = try RawSocket(path: daemon.socketPath)
        socket.send(#"{"jsonrpc":"2.0","#)
        #expect(socket.waitForClose())
        #expect(daemon.log.contains("an unfinished line waited too long"))
    }

    @Test func idleConnectionIsClosed() async throws {
        let daemon = try await DaemonProcess(configuration: "[limits]\nidle_timeout_seconds = 1\n")
        let socket = try RawSocket(path: daemon.socketPath)
        socket.send(Self.ping(1))
        #expect(socket.readLine() != nil)
        #expect(socket.waitForClose())
    }

    /// A subscriber waits for the daemon, and may hear nothing for hours: `twctl timeline --follow` and the TUI were
    /// cut off (and reconnected) every idle timeout. Two plain connections opened after the subscription, each
    /// closed for being idle, show that the subscriber's own idle checks have come and gone.
    @Test func aConnectionWithSubscriptionsOutlivesTheIdleTimeout() async throws {
        let daemon = try await DaemonProcess(
            configuration: DaemonProcess.fastHashing + "[limits]\nidle_timeout_seconds = 1\n")
        let token = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
        }
        let subscriber = try RawSocket(path: daemon.socketPath)
        subscriber.send(
            #"{"jsonrpc":"2.0","method":"auth.login","params":{"provider":"token","credentials":{"token":"\#(token)"}},"id":1}"#
                + "\n")
        #expect(subscriber.readLine()?.contains(#""result""#) == true)
        subscriber.send(#"{"jsonrpc":"2.0","method":"tweets.subscribe","id":2}"# + "\n")
        #expect(subscriber.readLine()?.contains(#""subscription":1"#) == true)
        for _ in 0..<2 {
            let plain = try RawSocket(path: daemon.socketPath)
            #expect(plain.waitForClose(), "a connection without subscriptions still closes when idle")
        }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.logIn(token: token)
            _ = try await alice.call("tweets.post", ["text": "still there?"])
        }
        let notification = try #require(subscriber.readLine(), "the subscriber was closed while idle")
        #expect(notification.contains(#""method":"tweets.new""#) && notification.contains("still there?"))
    }
}
