import MastodonAPI
import NIOCore
import NIOHTTP1

/// A whole response (status line, headers, body) in one buffer: the one home of the HTTP front's fast write.
///
/// Every answer but a stream of events is whole when it is written: a status, its headers and a body of known
/// length. NIO's outbound HTTP handlers turned its three parts (head, body, end) into three writes, validating and
/// framing the headers on the way, which was 14 % of a cached home timeline's samples (perf, bench/analysis.md);
/// here the bytes are written once, as NIO's encoder would write them (`HTTPResponseBytesTests` holds the two
/// equal), and `HTTPConnectionHandler` sends them under the encoder. A stream of events still goes through NIO's
/// encoder, which frames its chunks.
enum HTTPResponseBytes {
    /// The headers `response` goes out with, in order: its Content-Type (JSON unless it names its own), its
    /// length, `Cache-Control: no-store`, its own headers, and `Connection: close` when the connection ends
    /// after it. No cookie is ever among them.
    static func headers(of response: MastodonResponse, keepAlive: Bool) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        headers.reserveCapacity(4 + response.headers.count)
        // An endpoint's own Content-Type (the authorize page's text/plain), in any case, replaces the default.
        if !response.headers.contains(where: { $0.name.lowercased() == "content-type" }) {
            headers.append(("Content-Type", "application/json; charset=utf-8"))
        }
        headers.append(("Content-Length", String(response.body.count)))
        headers.append(("Cache-Control", "no-store"))
        for header in response.headers { headers.append((header.name, header.value)) }
        if !keepAlive { headers.append(("Connection", "close")) }
        return headers
    }

    /// `response` as HTTP/1.x bytes for a request of `version`; without `withBody` (the answer to a `HEAD`), the
    /// head says what a `GET` would get, its `Content-Length` too, and no body follows. Nil when a header is not a
    /// valid field (a name that is not a token, a value with CR, LF or NUL), which must never reach the wire: the
    /// caller answers 500 instead, as NIO's header validator refused such a head.
    static func encoded(
        _ response: MastodonResponse, version: HTTPVersion, keepAlive: Bool, withBody: Bool = true,
        allocator: ByteBufferAllocator
    ) -> ByteBuffer? {
        let headers = headers(of: response, keepAlive: keepAlive)
        guard headers.allSatisfy({ isToken($0.name) && isFieldValue($0.value) }) else { return nil }
        let status = HTTPResponseStatus(statusCode: response.status)
        var buffer = allocator.buffer(capacity: 256 + (withBody ? response.body.count : 0))
        buffer.writeString("HTTP/\(version.major).\(version.minor) \(status.code) \(status.reasonPhrase)\r\n")
        for (name, value) in headers {
            buffer.writeString(name)
            buffer.writeStaticString(": ")
            buffer.writeString(value)
            buffer.writeStaticString("\r\n")
        }
        buffer.writeStaticString("\r\n")
        if withBody { buffer.writeBytes(response.body) }
        return buffer
    }

    /// RFC 9110's `token`: what a field name is made of.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }

    /// A field value as NIO's validator takes it: no CR, LF or NUL, which would end the field or the head early.
    static func isFieldValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
}
