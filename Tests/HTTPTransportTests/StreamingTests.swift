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
