import Foundation
import JSONRPC
import TestSupport
import Testing

@testable import HTTPTransport

/// The transport over real sockets: keep-alive, pipelining in order, the Host check, limits, 404/405, params
/// of every encoding, and no cookie ever.
@Suite(.serialized) struct ServingTests {
    @Test func keepAliveAnswersSeveralRequestsOnOneConnectionOverBothSockets() async throws {
        let fixture = try await HTTPFixture()
        for client in [try fixture.unixClient(), try fixture.tcpClient()] {
            for id in ["1", "22", "333"] {
                let response = try #require(client.call("GET", "/api/v1/test/items/\(id)"))
                #expect(response.status == 200)
                #expect(response.json?["id"] == .string(id))
                #expect(response.headers["set-cookie"] == nil)
                #expect(response.headers["content-type"] == "application/json; charset=utf-8")
            }
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let fixture = try await HTTPFixture()
        let client = try fixture.tcpClient()
        let ids = (1...20).map(String.init)
        var bytes = ""
        for id in ids { bytes += "GET /api/v1/test/items/\(id) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }
        #expect(client.socket.send(bytes))
        for id in ids {
            let response = try #require(client.read())
            #expect(response.json?["id"] == .string(id))
        }
    }

    @Test func aForeignHostIsRefusedAgainstDNSRebinding() async throws {
        let fixture = try await HTTPFixture { $0.http.hosts = ["twitterd.internal"] }
        let client = try fixture.tcpClient()
        for host in [
            "localhost", "localhost:3000", "127.0.0.1:\(fixture.port)", "[::1]:8080", "127.9.9.9",
            "TWITTERD.internal:80",
        ] {
            #expect(client.call("GET", "/api/v1/test/items/1", host: host)?.status == 200, "\(host)")
        }
        for host in [
            "evil.example", "evil.example:\(fixture.port)", "192.168.1.2", "localhost.evil.example", "",
            "localhost:x", "localhost:", ":3000", "localhost:1:2", "[::1]x",
        ] {
            let response = try #require(client.call("GET", "/api/v1/test/items/1", host: host))
            #expect(response.status == 421, "\(host)")
            #expect(response.json?["error"] != nil)
        }
        let without = try #require(try fixture.tcpClient().call("GET", "/api/v1/test/items/1", host: nil))
        #expect(without.status == 421 || without.status == 400)
    }

    @Test func unknownPathsAre404AndWrongMethods405WithAnErrorBody() async throws {
        let fixture = try await HTTPFixture()
        let client = try fixture.unixClient()
        let missing = try #require(client.call("GET", "/api/v1/nothing/here"))
        #expect(missing.status == 404)
        #expect(missing.json?["error"] != nil)
        let wrong = try #require(client.call("PUT", "/api/v1/test/echo", body: "a=1"))
        #expect(wrong.status == 405)
        #expect(wrong.headers["allow"] == "DELETE, POST")
        #expect(client.call("GET", "/api/v1/test/items/7/")?.json?["id"] == .string("7"), "a trailing slash")
    }

    @Test func paramsArriveFromQueryFormJSONAndMultipartDeleteIncluded() async throws {
        let fixture = try await HTTPFixture()
        let client = try fixture.tcpClient()
        let form = try #require(
            client.call(
                "POST", "/api/v1/test/echo?q=hello+world%40x",
                headers: ["Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": "abc"],
                body: "types%5B%5D=mention&types[]=follow&status=hi"))
        #expect(form.status == 200)
        #expect(form.json?["q"] == ["hello world@x"])
        #expect(form.json?["types"] == ["mention", "follow"])
        #expect(form.json?["idempotencyKey"] == "abc")
        #expect(form.json?["origin"] == "http://localhost")
        let json = try #require(
            client.call(
                "DELETE", "/api/v1/test/echo", headers: ["Content-Type": "application/json"],
                body: #"{"account_ids":["2","3"],"sensitive":true,"n":5}"#))
        #expect(json.json?["account_ids"] == ["2", "3"])
        #expect(json.json?["sensitive"] == ["true"])
        #expect(json.json?["n"] == ["5"])
        let multipart =
            "--XyZ\r\nContent-Disposition: form-data; name=\"status\"\r\n\r\nhello\r\nthere\r\n--XyZ--\r\n"
        let parts = try #require(
            client.call(
                "POST", "/api/v1/test/echo", headers: ["Content-Type": "multipart/form-data; boundary=XyZ"],
                body: multipart))
        #expect(parts.json?["status"] == ["hello\r\nthere"])
        let bad = try #require(
            client.call("POST", "/api/v1/test/echo", headers: ["Content-Type": "application/json"], body: "{nope"))
        #expect(bad.status == 400)
        #expect(bad.json?["error"] != nil)
        #expect(client.call("GET", "/api/v1/test/items/1")?.status == 200, "the connection still serves")
    }

    @Test func aBodyOverTheLimitIs413AndTheConnectionCloses() async throws {
        let fixture = try await HTTPFixture { $0.limits.maximumLineLength = 1024 }
        let client = try fixture.tcpClient()
        let response = try #require(
            client.call("POST", "/api/v1/test/echo", body: "a=" + String(repeating: "x", count: 2000)))
        #expect(response.status == 413)
        #expect(response.headers["connection"] == "close")
        #expect(client.socket.waitForClose())
        #expect(try fixture.tcpClient().call("GET", "/api/v1/test/items/1")?.status == 200)
    }

    @Test func anIdleConnectionIsClosed() async throws {
        let fixture = try await HTTPFixture { $0.limits.idleTimeout = .seconds(1) }
        let client = try fixture.tcpClient()
        #expect(client.call("GET", "/api/v1/test/items/1")?.status == 200)
        #expect(client.socket.waitForClose())
    }
}

/// The per-uid connection cap over loopback TCP, for a real second local user: the uid comes from sock_diag.
@Suite(.serialized) struct TCPUidTests {
    /// `socat` run as uid 65534 to the fixture's TCP port, its output read line by line.
    final class ForeignTCPClient {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        let lines: LineReader

        init(port: Int) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = [
                "--reuid=65534", "--regid=65534", "--clear-groups", "--", "/usr/bin/socat", "-t", "30", "-",
                "TCP:127.0.0.1:\(port)",
            ]
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            lines = LineReader(descriptor: output.fileHandleForReading.fileDescriptor)
            try process.run()
        }

        deinit {
            try? input.fileHandleForWriting.close()
            if process.isRunning { process.terminate() }
        }

        func send(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }
        func statusLine() -> String? { lines.next(seconds: 30) }
    }

    @Test(.enabled(if: ForeignPeer.isPossible, "changing uid needs root"))
    func anotherUsersSecondConnectionOverTheCapIs503WhileOthersAreServed() async throws {
        let fixture = try await HTTPFixture { $0.limits.maximumConnectionsPerUID = 1 }
        let first = try ForeignTCPClient(port: fixture.port)
        first.send("GET /api/v1/test/items/1 HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(first.statusLine()?.hasPrefix("HTTP/1.1 200") == true)
        let second = try ForeignTCPClient(port: fixture.port)
        second.send("GET /api/v1/test/items/1 HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(second.statusLine()?.hasPrefix("HTTP/1.1 503") == true, "uid 65534 holds its one connection")
        #expect(try fixture.tcpClient().call("GET", "/api/v1/test/items/1")?.status == 200, "this uid is not held")
    }
}

/// Requests NIO cannot parse: Mastodon's error body, then the connection closes.
@Suite(.serialized) struct MalformedRequestTests {
    @Test func garbageIs400AndHugeHeaders431WithAnErrorBody() async throws {
        let fixture = try await HTTPFixture()
        let garbage = try fixture.tcpClient()
        garbage.socket.send("NOT HTTP AT ALL\r\n\r\n")
        let bad = try #require(garbage.read())
        #expect(bad.status == 400)
        #expect(bad.json?["error"] != nil)
        #expect(garbage.socket.waitForClose())
        let huge = try fixture.tcpClient()
        huge.socket.send(
            "GET /api/v1/test/items/1 HTTP/1.1\r\nHost: localhost\r\nX-Big: "
                + String(repeating: "a", count: 70 * 1024) + "\r\n\r\n")
        let large = try #require(huge.read())
        #expect(large.status == 431)
        #expect(large.json?["error"] != nil)
        #expect(try fixture.tcpClient().call("GET", "/api/v1/test/items/1")?.status == 200, "others are served")
    }

    /// An endpoint's own Content-Type, whatever its case, replaces the default JSON one: sent once.
    @Test func anEndpointsContentTypeReplacesTheDefaultOne() async throws {
        let fixture = try await HTTPFixture()
        let client = try fixture.tcpClient()
        client.send("GET", "/api/v1/test/text")
        #expect(client.socket.readLine()?.hasPrefix("HTTP/1.1 200") == true)
        var contentTypes: [String] = []
        while let line = client.socket.readLine(), line != "\r" {
            if line.lowercased().hasPrefix("content-type:") { contentTypes.append(line) }
        }
        #expect(contentTypes.map { $0.lowercased() } == ["content-type: text/plain; charset=utf-8\r"])
    }
}
