import JSONRPC
import Logging
import NIOCore
import NIOEmbedded
import Testing
import TwitterCore

@testable import JSONRPCTransport
@testable import TwitterServer

/// The framing and connection handlers on NIO's EmbeddedChannel: no socket, no sleep, virtual time.
struct ConnectionHandlerTests {
    static func processor(limits: ProtocolLimits = ProtocolLimits()) -> RequestProcessor<RequestContext> {
        var router = Router<RequestContext>()
        router.register(
            RPCMethod<NoParams, String>(
                MethodDescriptor("test.ping", summary: "pong", result: .string(), access: .open)),
            in: .open
        ) { _, _ in "pong" }
        router.register(
            RPCMethod<NoParams, String>(
                MethodDescriptor("test.big", summary: "4,000 bytes", result: .string(), access: .open)),
            in: .open
        ) { _, _ in String(repeating: "x", count: 4000) }
        return RequestProcessor(
            router: router, limits: limits, middleware: [AnswerBudget()],
            mapError: { error, _, _ in RPCError.internalError(errorID: "\(error)") })
    }

    /// A channel with the daemon's connection pipeline; `closed` counts the calls of the close callback.
    static func channel(
        limits: ServerConfiguration.Limits = .init(), processor: RequestProcessor<RequestContext>? = nil
    ) throws -> (EmbeddedChannel, Counter) {
        let channel = EmbeddedChannel()
        let closed = Counter()
        let session = ConnectionSession(id: 1, peer: PeerCredentials(userID: 1000, groupID: 1000, processID: 1))
        let handler = ConnectionHandler(
            session: session,
            answerer: LineAnswerer(
                processor: processor ?? Self.processor(limits: limits.protocolLimits), statistics: ServerStatistics()),
            logger: Logger(label: "test")
        ) { closed.value += 1 }
        try channel.pipeline.syncOperations.addHandler(LineFramingHandler(limits: limits))
        try channel.pipeline.syncOperations.addHandler(handler)
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/test")).wait()
        return (channel, closed)
    }

    final class Counter: @unchecked Sendable {
        // @unchecked: EmbeddedChannel runs everything on the test's thread.
        var value = 0
    }

    static func bytes(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    static func readLine(_ channel: EmbeddedChannel) throws -> String? {
        try channel.readOutbound(as: ByteBuffer.self).map { String(buffer: $0) }
    }

    static let ping = #"{"jsonrpc":"2.0","method":"test.ping","id":1}"#
    static let pong = #"{"id":1,"jsonrpc":"2.0","result":"pong"}"# + "\n"

    @Test func aLineSplitOverReadsIsAnsweredOnce() throws {
        let (channel, _) = try Self.channel()
        let line = Self.ping + "\n"
        let middle = line.index(line.startIndex, offsetBy: 20)
        try channel.writeInbound(Self.bytes(String(line[..<middle])))
        #expect(try Self.readLine(channel) == nil)
        try channel.writeInbound(Self.bytes(String(line[middle...])))
        #expect(try Self.readLine(channel) == Self.pong)
        #expect(try channel.finish().isClean)
    }

    @Test func pipelinedLinesOfOneReadAreAnsweredInOrderInOneWrite() throws {
        let (channel, _) = try Self.channel()
        let second = Self.ping.replacingOccurrences(of: #""id":1"#, with: #""id":2"#)
        try channel.writeInbound(Self.bytes(Self.ping + "\n" + second + "\n"))
        let answer = try #require(try Self.readLine(channel))
        #expect(answer == Self.pong + #"{"id":2,"jsonrpc":"2.0","result":"pong"}"# + "\n")
        #expect(try channel.finish().isClean)
    }

    @Test func anOverLongLineGetsOneErrorAndTheConnectionCloses() throws {
        var limits = ServerConfiguration.Limits()
        limits.maximumLineLength = 16
        let (channel, closed) = try Self.channel(limits: limits)
        try channel.writeInbound(Self.bytes(String(repeating: "x", count: 17)))
        let answer = try #require(try Self.readLine(channel))
        #expect(answer.contains(#""code":-32600"#))
        #expect(answer.contains(#""limit":16"#))
        #expect(!channel.isActive)
        #expect(closed.value == 1)
    }

    @Test func anAnswerOverTheBudgetIsAnErrorAndTheConnectionGoesOn() throws {
        var limits = ServerConfiguration.Limits()
        limits.maximumAnswerBytes = 1024
        let (channel, closed) = try Self.channel(limits: limits)
        let big = #"{"jsonrpc":"2.0","method":"test.big","id":7}"#
        try channel.writeInbound(Self.bytes(big + "\n" + Self.ping + "\n"))
        let answer = try #require(try Self.readLine(channel))
        let lines = answer.split(separator: "\n").map(String.init)
        try #require(lines.count == 2)
        #expect(lines[0].hasPrefix(#"{"error":{"code":-32600,"data":{"detail":"the answer is larger than 1024 bytes"#))
        #expect(lines[0].contains(#""limit":1024"#) && lines[0].hasSuffix(#""id":7,"jsonrpc":"2.0"}"#))
        #expect(lines[0].utf8.count < 1024, "the 4,000-byte result was not sent")
        #expect(lines[1] + "\n" == Self.pong, "the next line is answered as usual")
        #expect(channel.isActive)
        #expect(closed.value == 0)
        #expect(try channel.finish().isClean)
    }

    @Test func aDrainClosesAnIdleConnectionAfterTheQuietPeriodOnly() throws {
        let (channel, closed) = try Self.channel()
        channel.pipeline.fireUserInboundEventTriggered(DrainEvent())
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(50))
        try channel.writeInbound(Self.bytes(Self.ping + "\n"))
        #expect(try Self.readLine(channel) == Self.pong, "what arrives while draining is still answered")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(60))
        #expect(channel.isActive, "a line arrived during the quiet period")
        channel.embeddedEventLoop.advanceTime(by: ConnectionStateMachine.drainQuietPeriod)
        #expect(!channel.isActive)
        #expect(closed.value == 1)
    }

    @Test func endOfInputAnswersWhatCameBeforeThenCloses() throws {
        let (channel, closed) = try Self.channel()
        try channel.writeInbound(Self.bytes(Self.ping))
        channel.pipeline.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        #expect(try Self.readLine(channel) == Self.pong, "a last line without newline is a request")
        #expect(!channel.isActive)
        #expect(closed.value == 1)
    }

    @Test func aPartialLineTimesOutAndIsLoggedAsTheReason() throws {
        var limits = ServerConfiguration.Limits()
        limits.partialLineTimeout = .seconds(2)
        let (channel, _) = try Self.channel(limits: limits)
        try channel.writeInbound(Self.bytes(#"{"jsonrpc":"#))
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }
}
