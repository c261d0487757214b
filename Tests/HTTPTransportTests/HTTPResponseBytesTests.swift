import MastodonAPI
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import HTTPTransport

/// `HTTPResponseBytes`, the front's fast write: its bytes are those NIO's encoder writes for the same head and body
/// (the slow path it replaces), and no header that could split a response reaches the wire.
struct HTTPResponseBytesTests {
    /// What NIO's `HTTPResponseEncoder` writes for `response`'s head (the same headers, in order) and body.
    private static func encodedByNIO(
        _ response: MastodonResponse, version: HTTPVersion, keepAlive: Bool, withBody: Bool
    ) throws -> [UInt8] {
        let channel = EmbeddedChannel(handler: HTTPResponseEncoder())
        // The head the front promises: JSON unless the response names its own type, the length, no-store, its own
        // headers, and Connection: close when the connection ends.
        var headers = HTTPHeaders()
        if !response.headers.contains(where: { $0.name.lowercased() == "content-type" }) {
            headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        }
        headers.add(name: "Content-Length", value: String(response.body.count))
        headers.add(name: "Cache-Control", value: "no-store")
        for header in response.headers { headers.add(name: header.name, value: header.value) }
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let status = HTTPResponseStatus(statusCode: response.status)
        try channel.writeOutbound(
            HTTPServerResponsePart.head(HTTPResponseHead(version: version, status: status, headers: headers)))
        if withBody {
            try channel.writeOutbound(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: response.body))))
        }
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        var bytes: [UInt8] = []
        while let part = try channel.readOutbound(as: IOData.self) {
            guard case .byteBuffer(var buffer) = part else {
                Issue.record("a file region")
                break
            }
            bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
        }
        _ = try channel.finish()
        return bytes
    }

    private static func encoded(_ response: MastodonResponse, version: HTTPVersion, keepAlive: Bool, withBody: Bool)
        -> [UInt8]?
    {
        guard
            var buffer = HTTPResponseBytes.encoded(
                response, version: version, keepAlive: keepAlive, withBody: withBody, allocator: ByteBufferAllocator())
        else { return nil }
        return buffer.readBytes(length: buffer.readableBytes)
    }

    @Test(arguments: [
        (200, HTTPVersion.http1_1, true, true), (200, .http1_0, true, true), (404, .http1_1, false, true),
        (201, .http1_0, true, true),
        (422, .http1_1, true, false), (429, .http1_1, true, true), (299, .http1_1, true, true),
    ])
    func theBytesAreThoseNIOsEncoderWrites(status: Int, version: HTTPVersion, keepAlive: Bool, withBody: Bool)
        throws
    {
        let response = MastodonResponse(
            status: status,
            headers: [
                MastodonHeader(
                    name: "Link", value: #"<http://127.0.0.1:3000/api/v1/timelines/home?max_id=7>; rel="next""#),
                MastodonHeader(name: "X-RateLimit-Remaining", value: "299"),
            ],
            body: Array(#"[{"id":"7","content":"<p>héllo</p>"}]"#.utf8))
        let fast = try #require(Self.encoded(response, version: version, keepAlive: keepAlive, withBody: withBody))
        #expect(fast == (try Self.encodedByNIO(response, version: version, keepAlive: keepAlive, withBody: withBody)))
        let text = String(decoding: fast, as: UTF8.self)
        #expect(text.contains("Content-Length: \(response.body.count)\r\n"), "a HEAD's length is a GET's")
        #expect(text.hasSuffix(withBody ? "</p>\"}]" : "\r\n\r\n"))
        #expect(text.contains("Connection: close\r\n") == !keepAlive)
    }

    @Test(arguments: [0, 7, 10, 1_390, 27_137, 1_000_000])
    func theLengthIsTheBodysInDecimal(count: Int) throws {
        let response = MastodonResponse(status: 200, headers: [], body: [UInt8](repeating: 0x61, count: count))
        let bytes = try #require(Self.encoded(response, version: .http1_1, keepAlive: true, withBody: false))
        #expect(String(decoding: bytes, as: UTF8.self).contains("\r\nContent-Length: \(count)\r\n"))
    }

    @Test func anEndpointsOwnContentTypeReplacesTheDefault() throws {
        let response = MastodonResponse(
            status: 200, headers: [MastodonHeader(name: "content-type", value: "text/plain")], body: Array("ok".utf8))
        let text = String(
            decoding: try #require(Self.encoded(response, version: .http1_1, keepAlive: true, withBody: true)),
            as: UTF8.self)
        #expect(!text.contains("application/json") && text.contains("content-type: text/plain\r\n"))
    }

    @Test(arguments: [
        ("X-Next", "a\r\nSet-Cookie: stolen=1"), ("X-Next", "a\nb"), ("X-Next", "a\u{0}b"), ("Bad Name", "v"),
        ("", "v"), ("X:Next", "v"),
    ])
    func aHeaderThatCouldSplitTheResponseIsNeverWritten(name: String, value: String) {
        let response = MastodonResponse(status: 200, headers: [MastodonHeader(name: name, value: value)], body: [])
        #expect(Self.encoded(response, version: .http1_1, keepAlive: true, withBody: true) == nil)
    }
}
