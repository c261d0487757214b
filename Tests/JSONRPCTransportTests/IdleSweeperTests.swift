import NIOCore
import NIOEmbedded
import Testing

@testable import JSONRPCTransport
@testable import TwitterServer

/// The idle timeout as one check per event loop, on NIO's virtual time.
struct IdleSweeperTests {
    static func limits(idleSeconds: Int64) -> ServerConfiguration.Limits {
        var limits = ServerConfiguration.Limits()
        limits.idleTimeout = .seconds(idleSeconds)
        return limits
    }

    @Test func aQuietConnectionClosesAfterTheTimeoutAndActivityKeepsItOpen() throws {
        let (channel, closed) = try ConnectionHandlerTests.channel(limits: Self.limits(idleSeconds: 8))
        for _ in 0..<3 {
            channel.embeddedEventLoop.advanceTime(by: .seconds(5))
            try channel.writeInbound(ByteBuffer(string: ConnectionHandlerTests.ping + "\n"))
            #expect(try ConnectionHandlerTests.readLine(channel) == ConnectionHandlerTests.pong)
        }
        #expect(channel.isActive, "a ping every 5 s for 15 s, longer than the timeout")
        channel.embeddedEventLoop.advanceTime(by: .seconds(7))
        #expect(channel.isActive, "quiet for less than the timeout")
        // Told at most two checks (an eighth of the timeout each) after the timeout.
        channel.embeddedEventLoop.advanceTime(by: .seconds(3))
        #expect(!channel.isActive)
        #expect(closed.value == 1)
    }

    @Test func oneCheckWatchesEveryConnectionOfALoopUntilEachCloses() throws {
        let loop = EmbeddedEventLoop()
        let sweepers = IdleSweepers()
        let limits = Self.limits(idleSeconds: 8)
        let quiet = EmbeddedChannel(loop: loop)
        let talking = EmbeddedChannel(loop: loop)
        for channel in [quiet, talking] {
            try channel.pipeline.syncOperations.addHandler(LineFramingHandler(limits: limits, idleSweepers: sweepers))
        }
        let sweeper = sweepers.sweeper(on: loop, timeout: .seconds(8))
        #expect(sweeper.count == 2, "both connections are watched by their loop's one check")
        for _ in 0..<9 {
            loop.advanceTime(by: .seconds(1))
            try talking.writeInbound(ByteBuffer(string: "{}\n"))
        }
        guard case .idle = try quiet.readInbound(as: InboundFrame.self) else {
            Issue.record("the quiet connection was not told it is idle")
            return
        }
        while let frame = try talking.readInbound(as: InboundFrame.self) {
            if case .idle = frame { Issue.record("a connection that reads every second was told it is idle") }
        }
        _ = try quiet.finish()
        loop.run()
        #expect(sweeper.count == 1, "a closed connection leaves the check")
        _ = try talking.finish()
        loop.run()
        #expect(sweeper.count == 0)
    }

    @Test func aQuietConnectionKeepsNoFramingBufferAndAnUnfinishedLineIsKept() throws {
        let loop = EmbeddedEventLoop()
        let handler = LineFramingHandler(limits: Self.limits(idleSeconds: 8))
        let channel = EmbeddedChannel(handler: handler, loop: loop)
        try channel.writeInbound(ByteBuffer(string: "{}\n"))
        #expect(handler.retainedBytes > 0, "kept while the connection is busy")
        loop.advanceTime(by: .seconds(2))
        #expect(handler.retainedBytes == 0, "given back by the first check that saw no activity")
        try channel.writeInbound(ByteBuffer(string: "{\"unfinished\":"))
        loop.advanceTime(by: .seconds(2))
        #expect(handler.retainedBytes > 0, "an unfinished line is kept for the rest of it")
        try channel.writeInbound(ByteBuffer(string: "1}\n"))
        var lines: [[UInt8]] = []
        while let frame = try channel.readInbound(as: InboundFrame.self) {
            if case .lines(let read) = frame { lines += read }
        }
        #expect(lines.map { String(decoding: $0, as: UTF8.self) } == ["{}", #"{"unfinished":1}"#])
    }
}
