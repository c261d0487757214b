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
    /// cookie is ever among them. Written by bytes, without a list of strings in between: building one was 10,500
    /// instructions of a kept home page's 234,000 (callgrind, bench/instructions.sh).
    static func encoded(
        _ response: MastodonResponse, version: HTTPVersion, keepAlive: Bool, withBody: Bool = true,
        allocator: ByteBufferAllocator
    ) -> ByteBuffer? {
        var ownBytes = 0
        var namesContentType = false
        for header in response.headers {
            guard isToken(header.name) && isFieldValue(header.value) else { return nil }
            ownBytes += header.name.utf8.count + header.value.utf8.count + 4
            // An endpoint's own Content-Type (the authorize page's text/plain), in any case, replaces the default.
            if !namesContentType, header.name.utf8.elementsEqual("content-type".utf8, by: { $0 | 0x20 == $1 }) {
                namesContentType = true
            }
        }
        var buffer = allocator.buffer(capacity: 160 + ownBytes + (withBody ? response.body.count : 0))
        if version == .http1_1 && response.status == 200 {
            buffer.writeStaticString("HTTP/1.1 200 OK\r\n")
        } else {
            let status = HTTPResponseStatus(statusCode: response.status)
            buffer.writeString("HTTP/\(version.major).\(version.minor) \(status.code) \(status.reasonPhrase)\r\n")
        }
        if !namesContentType { buffer.writeStaticString("Content-Type: application/json; charset=utf-8\r\n") }
        buffer.writeStaticString("Content-Length: ")
        writeDecimal(response.body.count, into: &buffer)
        buffer.writeStaticString("\r\nCache-Control: no-store\r\n")
        for header in response.headers {
            buffer.writeString(header.name)
            buffer.writeStaticString(": ")
            buffer.writeString(header.value)
            buffer.writeStaticString("\r\n")
        }
        if !keepAlive { buffer.writeStaticString("Connection: close\r\n") }
        buffer.writeStaticString("\r\n")
        if withBody { buffer.writeBytes(response.body) }
        return buffer
    }

    /// `number` (not negative) in decimal digits.
    private static func writeDecimal(_ number: Int, into buffer: inout ByteBuffer) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        var rest = UInt(max(number, 0))
        withUnsafeMutableBytes(of: &digits) { space in
            repeat {
                count += 1
                space[space.count - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            buffer.writeBytes(UnsafeRawBufferPointer(rebasing: space[(space.count - count)...]))
        }
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
