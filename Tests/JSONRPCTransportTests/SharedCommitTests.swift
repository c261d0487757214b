import Foundation
import JSONRPC
import Logging
import NIOCore
import NIOEmbedded
import Synchronization
import Testing
import TwitterAPI
import TwitterCore
import TwitterSQLite

@testable import JSONRPCTransport
@testable import TwitterServer

/// What `sharesCommits` is for, with the SQLite store's group commit: a connection's pipelined posts, started
/// together by the rule of order (`LineAnswerer`), share commits, and still take their ids in arrival order.
struct SharedCommitTests {
    /// Counts the commits the store reports.
    final class CommitCounter: CommitObserving {
        let commits = Mutex(0)
        func committed(_ events: [CommitEvent]) { commits.withLock { $0 += 1 } }
    }

    @Test func thirtyTwoPipelinedPostsCommitInFewerThanThirtyTwoCommitsAndInOrder() async throws {
        let counter = CommitCounter()
        let stores = try AppDatabase.inMemory().stores(observer: counter)
        let alice = try await stores.users.createUser(email: "alice@example.com", username: "alice", passwordHash: nil)
        let before = counter.commits.withLock { $0 }
        var router = Router<RequestContext>()
        router.register(
            RPCMethod<API.Tweets.PostParams, Tweet>(
                MethodDescriptor(
                    "test.post", summary: "", params: [Property("text", .string(), required: true)], result: .string(),
                    access: .open, sharesCommits: true)),
            in: .open
        ) { [tweets = stores.tweets] params, _ in try await tweets.post(PostDraft(text: params.text, by: alice.id)) }
        let processor = RequestProcessor(
            router: router, limits: ProtocolLimits(), middleware: [],
            mapError: { error, _, _ in RPCError.internalError(errorID: "\(error)") })
        let channel = try await NIOAsyncTestingChannel { channel in
            let session = ConnectionSession(id: 1, peer: PeerCredentials(userID: 1000, groupID: 1000, processID: 1))
            try channel.pipeline.syncOperations.addHandler(LineFramingHandler(limits: .init()))
            try channel.pipeline.syncOperations.addHandler(
                ConnectionHandler(
                    session: session, answerer: LineAnswerer(processor: processor, statistics: ServerStatistics()),
                    logger: Logger(label: "test"), onClosed: {}))
        }
        try await channel.connect(to: SocketAddress(unixDomainSocketPath: "/test"))

        let count = 32
        let lines = (1...count).map {
            #"{"jsonrpc":"2.0","method":"test.post","params":{"text":"post \#($0)"},"id":\#($0)}"#
        }
        try await channel.writeInbound(ByteBuffer(string: lines.joined(separator: "\n") + "\n"))
        var answers: [String] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while answers.count < count, ContinuousClock.now < deadline {
            await channel.testingEventLoop.run()
            while let buffer = try await channel.readOutbound(as: ByteBuffer.self) {
                answers += String(buffer: buffer).split(separator: "\n").map(String.init)
            }
            try await Task.sleep(for: .milliseconds(1))
        }
        try #require(answers.count == count)
        let ids = try answers.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let result = try #require(object["result"] as? [String: Any], "\(line)")
            let text = try #require(result["text"] as? String)
            return (answer: try #require(object["id"] as? Int), text: text, id: try #require(result["id"] as? Int))
        }
        #expect(ids.map(\.answer) == Array(1...count), "answered in arrival order")
        #expect(ids.map(\.text) == (1...count).map { "post \($0)" })
        #expect(ids.map(\.id) == ids.map(\.id).sorted(), "stored in arrival order")
        let commits = counter.commits.withLock { $0 } - before
        #expect(commits < count, "\(commits) commits for \(count) pipelined posts")
        _ = try? await channel.finish()
    }
}
