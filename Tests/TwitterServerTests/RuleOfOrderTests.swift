import JSONRPC
import NIOCore
import NIOEmbedded
import Testing
import TwitterCore

@testable import TwitterServer

/// `LineAnswerer`'s rule of order on NIO's EmbeddedChannel, with handlers that are plain async functions: a
/// connection's calls run one after another, except that pipelined calls of a method that queues its writes in
/// a commit order start together and queue behind one another; every answer comes in arrival order, and any
/// other call waits for them and sees their effect.
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

    struct Text: Decodable { let text: String }

    static let post = MethodDescriptor(
        "test.post", summary: "", params: [Property("text", .string(), required: true)], result: .string(),
        access: .open)
    static let like = MethodDescriptor(
        "test.like", summary: "", params: [Property("text", .string(), required: true)], result: .string(),
        access: .open)
    static let read = MethodDescriptor("test.read", summary: "", result: .string(), access: .open)

    static func processor(_ commits: Commits) -> RequestProcessor<RequestContext> {
        var router = Router<RequestContext>()
        // Both writes queue in the commit order, as a store does, before they wait for the commit.
        for method in [post, like] {
            router.register(
                method,
                MethodHandler { (params: Text, _) async -> String in
                    commits.queued.append(params.text)
                    WriteOrder.tookPlace()
                    await withCheckedContinuation { commits.waiting.append($0) }
                    return params.text
                })
        }
        router.register(
            read, MethodHandler { (_: NoParams, _) async -> String in commits.committed.joined(separator: ",") })
        return RequestProcessor(
            router: router, limits: ProtocolLimits(), authorize: { _, _ in },
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
        // The method's first call runs to its answer alone: that it queues its writes is learnt from it.
        try channel.writeInbound(ByteBuffer(string: Self.call("test.post", "a", id: 1)))
        #expect(commits.queued == ["a"])
        commits.commitAll()
        channel.embeddedEventLoop.run()
        #expect(try Self.answers(channel) == [Self.result(1, "a")])

        let lines = ["b", "c", "d"].enumerated().map { Self.call("test.post", $1, id: $0 + 2) }.joined()
        try channel.writeInbound(ByteBuffer(string: lines + Self.call("test.read", id: 5)))
        channel.embeddedEventLoop.run()
        #expect(commits.queued == ["b", "c", "d"], "the three posts queued before any was committed")
        #expect(try Self.answers(channel) == [], "nothing is answered before the posts are committed")
        commits.commitAll()
        channel.embeddedEventLoop.run()
        #expect(
            try Self.answers(channel) == [
                Self.result(2, "b"), Self.result(3, "c"), Self.result(4, "d"), Self.result(5, "a,b,c,d"),
            ])
        #expect(try channel.finish().isClean)
    }

    @Test func aWriteOfAnotherMethodWaitsForTheQueuedOnesBeforeItStarts() throws {
        let commits = Commits()
        let (channel, _) = try ConnectionHandlerTests.channel(processor: Self.processor(commits))
        for (id, method) in ["test.post", "test.like"].enumerated() {
            try channel.writeInbound(ByteBuffer(string: Self.call(method, "learn", id: id)))
            commits.commitAll()
            channel.embeddedEventLoop.run()
            _ = try Self.answers(channel)
        }
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
}
