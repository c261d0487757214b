import NIOCore
import NIOEmbedded
import Testing

@testable import JSONRPC
@testable import JSONRPCTransport
@testable import TwitterServer

/// A result written in parts (`ResponseLine`, straight into the connection's buffer) against the same
/// line written whole, on NIO's EmbeddedChannel.
struct AnswerWriterTests {
    static func whole(_ result: [UInt8], id: RPCID) -> [UInt8] {
        var line: [UInt8] = []
        ResponseWriter.writeResult(result, id: id, into: &line)
        return line
    }

    @Test(arguments: [RPCID.number(JSONNumber(7)), .string("a\"b"), .null])
    func aResultInPartsIsTheLineWrittenWhole(id: RPCID) throws {
        let large =
            Array("\"".utf8) + Array(repeating: UInt8(ascii: "x"), count: 3_000)
            + Array("\"".utf8)
        for result in [Array(#""pong""#.utf8), Array("1".utf8), large] {
            let line = ResponseLine(id: id, result: result)
            #expect(line.joined == Self.whole(result, id: id))
            #expect(line.count == Self.whole(result, id: id).count)

            let channel = EmbeddedChannel()
            let writer = AnswerWriter(channel: channel)
            writer.append(ResponseLine(head: Array(#"{"id":1,"jsonrpc":"2.0","result":"pong"}"#.utf8)))
            writer.append(line)
            writer.append(line)
            writer.flush()
            let sent = try #require(try channel.readOutbound(as: ByteBuffer.self))
            #expect(
                Array(sent.readableBytesView)
                    == Array(#"{"id":1,"jsonrpc":"2.0","result":"pong"}"#.utf8) + [UInt8(ascii: "\n")]
                    + Self.whole(result, id: id) + [UInt8(ascii: "\n")] + Self.whole(result, id: id)
                    + [UInt8(ascii: "\n")])
            #expect(try channel.finish().isClean)
        }
    }
}
