import Foundation
import JSONRPC
import TestSupport
import Testing

@testable import HTTPTransport

/// Server-sent events over real sockets: the health check, a post made through the layer arriving as an
/// `update`, and a revocation ending the stream.
@Suite(.serialized) struct StreamingTests {
    @Test func healthAnswersOK() async throws {
        let fixture = try await HTTPFixture()
        let response = try #require(try fixture.tcpClient().call("GET", "/api/v1/streaming/health"))
        #expect(response.status == 200)
        #expect(response.body == "OK")
        #expect(response.headers["content-type"] == "text/plain; charset=utf-8")
    }

    @Test func aPostArrivesAsAnUpdateAndARevocationEndsTheStream() async throws {
        let fixture = try await HTTPFixture()
        let alice = try await fixture.personalToken("alice")
        let client = try fixture.tcpClient()
        client.send("GET", "/api/v1/streaming/user", headers: ["Authorization": "Bearer \(alice.token)"])
        #expect(client.socket.readLine()?.hasPrefix("HTTP/1.1 200") == true)
        var headers: [String] = []
        while let line = client.socket.readLine(), line != "\r" { headers.append(line.lowercased()) }
        #expect(headers.contains("content-type: text/event-stream\r"))
        // The stream is open once its first comment arrives.
        var line = client.socket.readLine()
        while let text = line, text != ":)" { line = client.socket.readLine() }
        try await fixture.post("hello over SSE", token: alice.token)
        var event: String?
        var data: String?
        while let text = client.socket.readLine() {
            if text.hasPrefix("event: ") { event = String(text.dropFirst(7)) }
            if text.hasPrefix("data: "), event == "update" {
                data = String(text.dropFirst(6))
                break
            }
        }
        #expect(event == "update")
        let payload = try JSONParser().parse(try #require(data))
        #expect(payload["content"].map { "\($0)".contains("hello over SSE") } == true, "\(payload)")
        try await fixture.revoke(alice.token, id: alice.id)
        #expect(client.socket.waitForClose(), "a revoked token ends its stream")
    }

    @Test func aStreamWithoutATokenIs401AndAnUnknownStream404() async throws {
        let fixture = try await HTTPFixture()
        let alice = try await fixture.personalToken("alice")
        #expect(try fixture.tcpClient().call("GET", "/api/v1/streaming/user")?.status == 401)
        let unknown = try fixture.tcpClient().call(
            "GET", "/api/v1/streaming/nothing?access_token=\(alice.token)")
        #expect(unknown?.status == 404)
    }
}

/// Mastodon's streaming WebSocket over a real socket: a minimal client (masked frames out, frames in).
@Suite(.serialized) struct WebSocketTests {
    final class Client {
        let http: HTTPTestClient

        init(_ http: HTTPTestClient) {
            self.http = http
        }

        func upgrade(_ target: String, headers: [String: String]) -> String? {
            var all = headers
            all["Upgrade"] = "websocket"
            all["Connection"] = "Upgrade"
            all["Sec-WebSocket-Key"] = "dGhlIHNhbXBsZSBub25jZQ=="
            all["Sec-WebSocket-Version"] = "13"
            http.send("GET", target, headers: all)
            let status = http.socket.readLine()
            while let line = http.socket.readLine(), line != "\r" {}
            return status
        }

        func send(_ text: String) {
            let payload = Array(text.utf8)
            var frame: [UInt8] = [0x81]
            if payload.count < 126 {
                frame.append(0x80 | UInt8(payload.count))
            } else {
                frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
            }
            let mask: [UInt8] = [1, 2, 3, 4]
            frame += mask
            frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
            http.socket.send(frame)
        }

        /// The next frame: its opcode and payload; nil at the end.
        func read() -> (opcode: UInt8, text: String)? {
            guard let head = http.socket.readBytes(2) else { return nil }
            var length = Int(head[1] & 0x7F)
            if length == 126 {
                guard let more = http.socket.readBytes(2) else { return nil }
                length = Int(more[0]) << 8 | Int(more[1])
            } else if length == 127 {
                guard let more = http.socket.readBytes(8) else { return nil }
                length = more.reduce(0) { $0 << 8 | Int($1) }
            }
            guard let payload = length == 0 ? [] : http.socket.readBytes(length) else { return nil }
            return (head[0] & 0x0F, String(decoding: payload, as: UTF8.self))
        }

        /// The next text frame, skipping pings.
        func readText() -> String? {
            while let frame = read() {
                if frame.opcode == 1 { return frame.text }
                if frame.opcode == 8 { return nil }
            }
            return nil
        }
    }

    @Test func subscribeGetsUpdatesAsStringPayloadsAndARevocationClosesTheSocket() async throws {
        let fixture = try await HTTPFixture()
        let alice = try await fixture.personalToken("alice")
        let client = Client(try fixture.tcpClient())
        let status = client.upgrade("/api/v1/streaming", headers: ["Authorization": "Bearer \(alice.token)"])
        #expect(status?.hasPrefix("HTTP/1.1 101") == true)
        client.send(#"{"type":"subscribe","stream":"user"}"#)
        // Answers come in the order asked: this refusal arrives once the subscription is made.
        client.send(#"{"type":"subscribe","stream":"nope"}"#)
        let refusal = try JSONParser().parse(try #require(client.readText()))
        #expect(refusal["status"] == 400)
        try await fixture.post("hello over WebSocket", token: alice.token)
        let message = try JSONParser().parse(try #require(client.readText()))
        #expect(message["stream"] == ["user"])
        #expect(message["event"] == "update")
        guard case .string(let payload)? = message["payload"] else {
            Issue.record("the payload must be a JSON string: \(message)")
            return
        }
        #expect(try JSONParser().parse(payload)["content"].map { "\($0)".contains("hello over WebSocket") } == true)
        try await fixture.revoke(alice.token, id: alice.id)
        var closed = false
        while let frame = client.read() { if frame.opcode == 8 { closed = true } }
        #expect(closed, "a revoked token closes the WebSocket")
    }

    @Test func aBadTokenIsRefusedAndTheSocketClosed() async throws {
        let fixture = try await HTTPFixture()
        let client = Client(try fixture.tcpClient())
        let status = client.upgrade("/api/v1/streaming?access_token=twp_bad", headers: [:])
        #expect(status?.hasPrefix("HTTP/1.1 101") == true)
        let refusal = try JSONParser().parse(try #require(client.readText()))
        #expect(refusal["status"] == 401)
        #expect(client.http.socket.waitForClose())
    }

    @Test func aForeignHostIsRefusedAndTheSocketClosedEvenWithAGoodToken() async throws {
        let fixture = try await HTTPFixture()
        let alice = try await fixture.personalToken("alice")
        let http = try fixture.tcpClient()
        http.send(
            "GET", "/api/v1/streaming?stream=user", host: "evil.example",
            headers: [
                "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
                "Sec-WebSocket-Version": "13", "Authorization": "Bearer \(alice.token)",
            ])
        #expect(http.socket.readLine()?.hasPrefix("HTTP/1.1 101") == true)
        while let line = http.socket.readLine(), line != "\r" {}
        let client = Client(http)
        let refusal = try JSONParser().parse(try #require(client.readText()))
        #expect(refusal["status"] == 421)
        #expect(client.http.socket.waitForClose())
    }

    @Test func anUpgradeElsewhereIsRefusedWithAnErrorBody() async throws {
        let fixture = try await HTTPFixture()
        let client = try fixture.tcpClient()
        let response = try #require(
            client.call(
                "GET", "/api/v1/test/items/1",
                headers: [
                    "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
                    "Sec-WebSocket-Version": "13",
                ]))
        #expect(response.status == 400)
        #expect(response.json?["error"] != nil)
    }
}
