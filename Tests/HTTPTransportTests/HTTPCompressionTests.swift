import CZlib
import MastodonAPI
import Testing

@testable import HTTPTransport

/// gzip answers: who gets one, that it inflates to the body it came from, and that a kept body is compressed
/// once; over a real socket, what a client that asks for gzip and one that does not each read.
@Suite struct HTTPCompressionTests {
    @Test func acceptEncodingTakesGzipOnlyWhenItsWeightIsAboveZero() {
        for header in [
            "gzip", "gzip, deflate", "deflate, gzip;q=0.5", "br;q=1.0, gzip;q=0.8, *;q=0.1", "*", "X-GZIP",
            "deflate ,\tGZip ; Q=0.5",
        ] {
            #expect(HTTPCompression.acceptsGzip(header), "\(header)")
        }
        for header in [
            nil, "", "identity", "deflate, br", "gzip;q=0", "gzip; q=0.000", "*;q=0", "*, gzip;q=0", "gzip;Q=0",
            "gzipx", "x-gzip2",
        ] {
            #expect(!HTTPCompression.acceptsGzip(header), "\(header ?? "nil")")
        }
    }

    @Test func aCompressedBodyInflatesToTheBodyItCameFrom() throws {
        let body = Array(String(repeating: "{\"content\":\"<p>hello &amp; good night</p>\"},", count: 200).utf8)
        for level in [Z_BEST_SPEED, Z_DEFAULT_COMPRESSION] {
            let compressed = try #require(HTTPCompression.gzip(body, level: level))
            #expect(compressed.count < body.count / 10)
            #expect(Array(compressed.prefix(2)) == [0x1F, 0x8B], "a gzip member, not a zlib stream")
            #expect(try gunzip(compressed) == body)
        }
        #expect(try gunzip(try #require(HTTPCompression.gzip([], level: Z_BEST_SPEED))) == [])
    }

    @Test func onlyABodyWorthCompressingIsCompressedAndOnlyForAClientThatTakesGzip() throws {
        let large = MastodonResponse(status: 200, headers: [], body: HTTPFixture.largeBody)
        let small = MastodonResponse(status: 200, headers: [], body: Array("{\"id\":\"1\"}".utf8))

        let gzipped = HTTPCompression.applied(to: large, acceptsGzip: true)
        #expect(
            gzipped.headers == [
                .init(name: "Vary", value: "Accept-Encoding"), .init(name: "Content-Encoding", value: "gzip"),
            ])
        #expect(try gunzip(gzipped.body) == large.body)

        let plain = HTTPCompression.applied(to: large, acceptsGzip: false)
        #expect(plain.body == large.body)
        #expect(plain.headers == [.init(name: "Vary", value: "Accept-Encoding")])

        let tiny = HTTPCompression.applied(to: small, acceptsGzip: true)
        #expect(tiny.body == small.body)
        #expect(tiny.headers.isEmpty)
    }

    @Test func aKeptBodyIsCompressedOnceAndTheSameBytesAreSentEachTime() throws {
        var kept = MastodonResponse(status: 200, headers: [], body: HTTPFixture.largeBody)
        kept.compression = KeptCompression()
        let first = HTTPCompression.applied(to: kept, acceptsGzip: true)
        let second = HTTPCompression.applied(to: kept, acceptsGzip: true)
        #expect(first.body == second.body)
        #expect(try gunzip(first.body) == kept.body)
        var calls = 0
        let again = kept.compression?.compressed(kept.body) { _ in
            calls += 1
            return nil
        }
        #expect(calls == 0, "the kept form is not made again")
        #expect(again == first.body)
    }

    @Test func overASocketAClientThatAsksGetsGzipAndOneThatDoesNotGetsTheBody() async throws {
        let fixture = try await HTTPFixture()
        let client = try fixture.tcpClient()
        let plain = try #require(client.call("GET", "/api/v1/test/large"))
        #expect(plain.status == 200)
        #expect(plain.headers["content-encoding"] == nil)
        #expect(plain.headers["vary"] == "Accept-Encoding")
        #expect(plain.bytes == HTTPFixture.largeBody)

        let gzipped = try #require(
            client.call("GET", "/api/v1/test/large", headers: ["Accept-Encoding": "gzip, deflate"]))
        #expect(gzipped.status == 200)
        #expect(gzipped.headers["content-encoding"] == "gzip")
        #expect(gzipped.headers["content-length"] == String(gzipped.bytes.count))
        #expect(try gunzip(gzipped.bytes) == HTTPFixture.largeBody)

        let refused = try #require(client.call("GET", "/api/v1/test/large", headers: ["Accept-Encoding": "gzip;q=0"]))
        #expect(refused.headers["content-encoding"] == nil)
        #expect(refused.bytes == HTTPFixture.largeBody)

        let small = try #require(client.call("GET", "/api/v1/test/items/7", headers: ["Accept-Encoding": "gzip"]))
        #expect(small.headers["content-encoding"] == nil)
        #expect(small.json?["id"] == .string("7"))
    }
}

/// `bytes` inflated, read as gzip (zlib's 15 bits of window, plus 16 for gzip only).
func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
    struct InflateFailure: Error {}
    var stream = z_stream()
    guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
        throw InflateFailure()
    }
    defer { inflateEnd(&stream) }
    var input = bytes
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16_384)
    var status = Z_OK
    try input.withUnsafeMutableBufferPointer { input in
        stream.next_in = input.baseAddress
        stream.avail_in = UInt32(input.count)
        repeat {
            let produced = chunk.withUnsafeMutableBufferPointer { out in
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                status = inflate(&stream, Z_NO_FLUSH)
                return out.count - Int(stream.avail_out)
            }
            guard status == Z_OK || status == Z_STREAM_END else { throw InflateFailure() }
            output += chunk.prefix(produced)
        } while status != Z_STREAM_END
    }
    return output
}
