import JSONRPC
import NIOCore
import NIOEmbedded
import Testing
import TwitterCore

@testable import JSONRPCTransport
@testable import TwitterServer

/// `LineAnswerer`'s rule of order on NIO's EmbeddedChannel, with handlers that are plain async functions: a
/// connection's calls run one after another, except that pipelined calls of a method declared `sharesCommits`
/// start together and queue behind one another; every answer comes in arrival order, and any other call waits
/// for them and sees their effect.
struct RuleOfOrderTests {
    /// A commit order the test commits by hand: what is queued, what is committed, and who waits.
    final class Commits: @unchecked Sendable {
        // @unchecked: EmbeddedChannel runs every task on the test's thread.
        var queued: [String] = []
        var committed: [String] = []
        var waiting: [CheckedContinuation<Void, Never>] = []

        func commitAll() {
            committed += queued
            queued = []
            let woken = waiting
            waiting = []
            // Last first: answers must still come in arrival order, whatever order the calls finish in.
            for continuation in woken.reversed() { continuation.resume() }
        }
    }

    struct Text: Codable, Sendable { let text: String }

    static func method(_ name: String, sharesCommits: Bool) -> RPCMethod<Text, String> {
        RPCMethod(
            MethodDescriptor(
                name, summary: "", params: [Property("text", .string(), required: true)], result: .string(),
                access: .open, sharesCommits: sharesCommits))
    }

    static let read = RPCMethod<NoParams, String>(
        MethodDescriptor("test.read", summary: "", result: .string(), access: .open))

    static func processor(_ commits: Commits) -> RequestProcessor<RequestContext> {
        var router = Router<RequestContext>()
        // Every write queues in the commit order, as a store does, before it waits for the commit; only the first
        // two are declared to.
        for method in [
            method("test.post", sharesCommits: true), method("test.like", sharesCommits: true),
            method("test.save", sharesCommits: false),
        ] {
            router.register(method, in: .open) { params, _ in
                commits.queued.append(params.text)
                await withCheckedContinuation { commits.waiting.append($0) }
                return params.text
            }
        }
        router.register(read, in: .open) { _, _ in commits.committed.joined(separator: ",") }
        return RequestProcessor(
            router: router, limits: ProtocolLimits(), middleware: [],
            mapError: { error, _, _ in RPCError.internalError(errorID: "\(error)") })
    }

    static func call(_ method: String, _ text: String? = nil, id: Int) -> String {
        let params = text.map { #","params":{"text":"\#($0)"}"# } ?? ""
        return #"{"jsonrpc":"2.0","method":"\#(method)"\#(params),"id":\#(id)}"# + "\n"
    }

    /// Every answer written so far, line by line.
    static func answers(_ channel: EmbeddedChannel) throws -> [String] {
        var lines: [String] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            lines += String(buffer: buffer).split(separator: "\n").map(String.init)
        }
        return lines
    }

    static func result(_ id: Int, _ text: String) -> String {
        #"{"id":\#(id),"jsonrpc":"2.0","result":"\#(text)"}"#
    }

    @Test func pipelinedPostsQueueTogetherAndACallBehindThemSeesThemAll() throws {
        let commits = Commits()
        let (channel, _) = try ConnectionHandlerTests.channel(processor: Self.processor(commits))
        // Declared, not learnt: the very first calls of the method already queue together.
        let lines = ["a", "b", "c"].enumerated().map { Self.call("test.post", $1, id: $0 + 1) }.joined()
        try channel.writeInbound(ByteBuffer(string: lines + Self.call("test.read", id: 4)))
        channel.embeddedEventLoop.run()
        #expect(commits.queued == ["a", "b", "c"], "the three posts queued before any was committed")
        #expect(try Self.answers(channel) == [], "nothing is answered before the posts are committed")
        commits.commitAll()
        channel.embeddedEventLoop.run()
        #expect(
            try Self.answers(channel) == [
                Self.result(1, "a"), Self.result(2, "b"), Self.result(3, "c"), Self.result(4, "a,b,c"),
            ])
        #expect(try channel.finish().isClean)
    }

    @Test func aWriteOfAnotherMethodWaitsForTheQueuedOnesBeforeItStarts() throws {
        let commits = Commits()
        let (channel, _) = try ConnectionHandlerTests.channel(processor: Self.processor(commits))
        try channel.writeInbound(
            ByteBuffer(string: Self.call("test.post", "x", id: 1) + Self.call("test.like", "y", id: 2)))
        channel.embeddedEventLoop.run()
        #expect(commits.queued == ["x"], "the like waits for the post before it")
        commits.commitAll()
        channel.embeddedEventLoop.run()
        #expect(commits.queued == ["y"])
        #expect(try Self.answers(channel) == [Self.result(1, "x")])
        commits.commitAll()
        channel.embeddedEventLoop.run()
        #expect(try Self.answers(channel) == [Self.result(2, "y")])
        #expect(try channel.finish().isClean)
    }

    @Test func pipelinedCallsOfAMethodNotDeclaredToShareCommitsRunOneAfterAnother() throws {
        let commits = Commits()
        let (channel, _) = try ConnectionHandlerTests.channel(processor: Self.processor(commits))
        try channel.writeInbound(
            ByteBuffer(string: Self.call("test.save", "x", id: 1) + Self.call("test.save", "y", id: 2)))
        channel.embeddedEventLoop.run()
        #expect(commits.queued == ["x"], "the second call waits for the first one's answer")
        commits.commitAll()
        channel.embeddedEventLoop.run()
        #expect(commits.queued == ["y"])
        #expect(try Self.answers(channel) == [Self.result(1, "x")])
        commits.commitAll()
        channel.embeddedEventLoop.run()
        #expect(try Self.answers(channel) == [Self.result(2, "y")])
        #expect(try channel.finish().isClean)
    }
}
