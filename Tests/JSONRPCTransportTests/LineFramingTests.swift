import NIOCore
import NIOEmbedded
import Testing
import TwitterServer

@testable import JSONRPCTransport

/// `LineFramingHandler` alone on NIO's EmbeddedChannel: how reads are cut into lines, at the limit and across reads.
struct LineFramingTests {
    /// What the handler passed on, as text: each read's lines, or `too long (LIMIT)`.
    enum Frame: Equatable {
        case lines([String])
        case tooLong(Int)
        case other
    }

    static func channel(maximumLineLength: Int) throws -> EmbeddedChannel {
        var limits = ServerConfiguration.Limits()
        limits.maximumLineLength = maximumLineLength
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(LineFramingHandler(limits: limits))
        return channel
    }

    static func read(_ text: String, into channel: EmbeddedChannel) throws -> [Frame] {
        try channel.writeInbound(ByteBuffer(string: text))
        var frames: [Frame] = []
        while let frame = try channel.readInbound(as: InboundFrame.self) {
            switch frame {
            case .lines(let lines): frames.append(.lines(lines.map { String(decoding: $0, as: UTF8.self) }))
            case .lineTooLong(let limit): frames.append(.tooLong(limit))
            default: frames.append(.other)
            }
        }
        return frames
    }

    @Test func aReadsLinesArePassedOnTogetherAndAnUnfinishedOneWaitsForItsEnd() throws {
        let channel = try Self.channel(maximumLineLength: 64)
        #expect(try Self.read("ab\ncd\nef", into: channel) == [.lines(["ab", "cd"])])
        #expect(try Self.read("g", into: channel) == [])
        #expect(try Self.read("h\n\ni\n", into: channel) == [.lines(["efgh", "", "i"])])
        _ = try channel.finish()
    }

    @Test func aLineOfExactlyTheLimitIsALineAndOneByteMoreIsTooLong() throws {
        let channel = try Self.channel(maximumLineLength: 8)
        #expect(try Self.read("12345678\n", into: channel) == [.lines(["12345678"])])
        #expect(try Self.read("123456789\n", into: channel) == [.tooLong(8)])
        _ = try channel.finish()
    }

    @Test func theLinesBeforeAnOverLongOneAreAnsweredThenNothingMoreIsFramed() throws {
        let channel = try Self.channel(maximumLineLength: 8)
        #expect(
            try Self.read("one\ntwo\nmuch too long\nthree\n", into: channel) == [.lines(["one", "two"]), .tooLong(8)])
        #expect(try Self.read("four\n", into: channel) == [])
        _ = try channel.finish()
    }
}
