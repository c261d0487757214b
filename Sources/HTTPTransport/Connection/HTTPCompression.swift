import CZlib
import MastodonAPI

/// The HTTP front's gzip answers (RFC 9110 `Content-Encoding`), as Mastodon's nginx gives its clients: the one
/// home of when an answer is compressed and how.
///
/// A client that says `Accept-Encoding: gzip` (python-requests says it for toot and Mastodon.py, and every
/// browser does) gets a body of 1 KB or more gzipped: a home page of 20 Statuses is 27,137 bytes as JSON and
/// 1,557 gzipped, and writing the 27 KB into the socket was a quarter of the daemon's time for that page (perf,
/// docs/BENCHMARKS.md). A kept rendering's body (`KeptCompression`) is compressed once, at zlib's default level,
/// and sent compressed as often as it is asked for; a body made for one answer is compressed at the fastest
/// level. `HTTPCompressionTests` holds that every compressed body inflates to the body it came from.
enum HTTPCompression {
    /// Below this many bytes a body goes as it is: the gzip framing's 18 bytes and the work are not worth it.
    static let minimumBytes = 1024

    /// `response` as a client whose `Accept-Encoding` took gzip (or did not) gets it: a body worth compressing
    /// gzipped, with `Content-Encoding: gzip`; and `Vary: Accept-Encoding` on every answer whose body depends on
    /// that header, so that no cache hands a gzipped body to a client that did not ask for one.
    static func applied(to response: MastodonResponse, acceptsGzip: Bool) -> MastodonResponse {
        guard response.body.count >= minimumBytes else { return response }
        var answer = response
        answer.headers.append(MastodonHeader(name: "Vary", value: "Accept-Encoding"))
        guard acceptsGzip else { return answer }
        let compressed =
            if let kept = response.compression {
                kept.compressed(response.body) { gzip($0, level: Z_DEFAULT_COMPRESSION) }
            } else {
                gzip(response.body, level: Z_BEST_SPEED).flatMap { $0.count < response.body.count ? $0 : nil }
            }
        guard let compressed else { return answer }
        answer.body = compressed
        answer.compression = nil
        answer.headers.append(MastodonHeader(name: "Content-Encoding", value: "gzip"))
        return answer
    }

    /// Whether the `Accept-Encoding` field values `header` (joined with commas) take gzip: `gzip` or `x-gzip` with
    /// a weight above 0, or `*` above 0 when gzip is not named. No header: no (RFC 9110 allows any coding then, but
    /// a client that says nothing may not inflate, and identity is always safe).
    ///
    /// Read by bytes, as every request's header is, without splitting it into arrays: splitting and lowering by
    /// `Character` was 6,100 instructions a request (callgrind).
    static func acceptsGzip(_ header: String?) -> Bool {
        guard var header else { return false }
        return header.withUTF8(acceptsGzip(bytes:))
    }

    private typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    private static func acceptsGzip(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var gzipWeight: Double?
        var anyWeight: Double?
        var rest = bytes[...]
        while !rest.isEmpty {
            let member = rest.prefix { $0 != UInt8(ascii: ",") }
            rest = rest[member.endIndex...].dropFirst()
            // `coding;param;param`: the first part that is not empty names the coding, the others are its params.
            var parts = member
            var coding: Bytes?
            var weight = 1.0
            while !parts.isEmpty {
                let part = parts.prefix { $0 != UInt8(ascii: ";") }
                parts = parts[part.endIndex...].dropFirst()
                guard !part.isEmpty else { continue }
                guard coding != nil else {
                    coding = part.trimmingBlanks
                    continue
                }
                let pair = part.trimmingBlanks
                if pair.prefix(2).equalsIgnoringASCIICase("q=") {
                    weight = Double(String(decoding: pair.dropFirst(2), as: UTF8.self)) ?? 0
                }
            }
            guard let coding else { continue }
            if coding.equalsIgnoringASCIICase("gzip") || coding.equalsIgnoringASCIICase("x-gzip") {
                gzipWeight = max(gzipWeight ?? 0, weight)
            } else if coding.equalsIgnoringASCIICase("*") {
                anyWeight = weight
            }
        }
        if let gzipWeight { return gzipWeight > 0 }
        return (anyWeight ?? 0) > 0
    }

    /// `bytes` gzipped (RFC 1952) at zlib's `level`; nil if zlib fails, and the body then goes as it is.
    static func gzip(_ bytes: [UInt8], level: Int32) -> [UInt8]? {
        var stream = z_stream()
        // 15 bits of window, plus 16: a gzip header and trailer rather than zlib's.
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, UInt(bytes.count)))
        var output = [UInt8](repeating: 0, count: bound)
        let finished = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                return deflate(&stream, Z_FINISH) == Z_STREAM_END
            }
        }
        guard finished else { return nil }
        output.removeLast(Int(stream.avail_out))
        return output
    }
}
