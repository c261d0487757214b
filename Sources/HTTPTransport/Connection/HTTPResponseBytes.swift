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
    /// `response` as HTTP/1.x bytes for a request of `version`; without `withBody` (the answer to a `HEAD`), the
    /// head says what a `GET` would get, its `Content-Length` too, and no body follows. Nil when a header is not a
    /// valid field (a name that is not a token, a value with CR, LF or NUL), which must never reach the wire: the
    /// caller answers 500 instead, as NIO's header validator refused such a head.
    ///
    /// The headers, in order: the response's Content-Type (JSON unless it names its own), its length,
    /// `Cache-Control: no-store`, its own headers, and `Connection: close` when the connection ends after it. No
    /// cookie is ever among them. Written by bytes, without a list of strings in between: building one, with its
    /// callees, was 25,000 instructions of a kept home page's 234,000 (callgrind, bench/instructions.sh); written
    /// this way, 7,900 with the body's copy.
    static func encoded(
        _ response: MastodonResponse, version: HTTPVersion, keepAlive: Bool, withBody: Bool = true,
        allocator: ByteBufferAllocator
    ) -> ByteBuffer? {
        var namesContentType = false
        for header in response.headers {
            guard isToken(header.name) && isFieldValue(header.value) else { return nil }
            // An endpoint's own Content-Type (the authorize page's text/plain), in any case, replaces the default.
            if header.name.utf8.equalsIgnoringASCIICase("content-type") { namesContentType = true }
        }
        // The head is gathered in an array and written at once: each write into a ByteBuffer costs a few hundred
        // instructions of checks, a dozen of them more than the whole head's bytes.
        var head: [UInt8] = []
        head.reserveCapacity(256)
        if version == .http1_1 && response.status == 200 {
            head += Self.okLine
        } else {
            let status = HTTPResponseStatus(statusCode: response.status)
            head += "HTTP/\(version.major).\(version.minor) \(status.code) \(status.reasonPhrase)\r\n".utf8
        }
        if !namesContentType { head += Self.jsonType }
        head += Self.lengthName
        appendDecimal(response.body.count, to: &head)
        head += Self.noStore
        for header in response.headers {
            head += header.name.utf8
            head += Self.separator
            head += header.value.utf8
            head += Self.lineEnd
        }
        if !keepAlive { head += Self.close }
        head += Self.lineEnd
        var buffer = allocator.buffer(capacity: head.count + (withBody ? response.body.count : 0))
        buffer.writeBytes(head)
        if withBody { buffer.writeBytes(response.body) }
        return buffer
    }

    private static let okLine = Array("HTTP/1.1 200 OK\r\n".utf8)
    private static let jsonType = Array("Content-Type: application/json; charset=utf-8\r\n".utf8)
    private static let lengthName = Array("Content-Length: ".utf8)
    private static let noStore = Array("\r\nCache-Control: no-store\r\n".utf8)
    private static let close = Array("Connection: close\r\n".utf8)
    private static let separator = Array(": ".utf8)
    private static let lineEnd = Array("\r\n".utf8)

    /// `number` (not negative) in decimal digits.
    private static func appendDecimal(_ number: Int, to bytes: inout [UInt8]) {
        let start = bytes.count
        var rest = UInt(max(number, 0))
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
    }

    /// RFC 9110's `token`: what a field name is made of.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && allBytes(of: name, satisfy: isTokenByte)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "^"),
            UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// A field value as NIO's validator takes it: no CR, LF or NUL, which would end the field or the head early.
    static func isFieldValue(_ value: String) -> Bool {
        allBytes(of: value) { $0 != 0x0D && $0 != 0x0A && $0 != 0x00 }
    }

    /// Whether every byte of `text` passes `test`: over its contiguous bytes, as a native string's are, since
    /// going through `String.UTF8View` byte by byte cost about 25 instructions a byte (callgrind).
    private static func allBytes(of text: String, satisfy test: (UInt8) -> Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(test) } ?? text.utf8.allSatisfy(test)
    }
}
