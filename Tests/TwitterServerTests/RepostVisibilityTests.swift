import JSONRPC
import Synchronization
import Testing
import TwitterCore
import TwitterServer

/// Every method that names a tweet, from the side of the reader who must be refused: alice posts, carol reposts,
/// and a block stands between alice and bob (either way). Bob names carol's repost; alice's original decides.
struct RepostVisibilityTests {
    /// Who blocks whom.
    enum Block: String, CaseIterable, Sendable {
        case originalsAuthorBlocksReader, readerBlocksOriginalsAuthor
    }

    /// A method that names a tweet, called by bob with the repost's id.
    enum NamingPath: String, CaseIterable, Sendable {
        case get, thread, like, unlike, likedBy, repostedBy, reply, repost, delete, report

        func call(_ repostID: Int64) -> (method: String, params: String) {
            switch self {
            case .get: ("tweets.get", #"{"id":\#(repostID)}"#)
            case .thread: ("tweets.thread", #"{"id":\#(repostID)}"#)
            case .like: ("tweets.like", #"{"id":\#(repostID)}"#)
            case .unlike: ("tweets.unlike", #"{"id":\#(repostID)}"#)
            case .likedBy: ("tweets.likedBy", #"{"id":\#(repostID)}"#)
            case .repostedBy: ("tweets.repostedBy", #"{"id":\#(repostID)}"#)
            case .reply: ("tweets.post", #"{"text":"sneaky","inReplyToId":\#(repostID)}"#)
            case .repost: ("tweets.repost", #"{"id":\#(repostID)}"#)
            case .delete: ("tweets.delete", #"{"id":\#(repostID)}"#)
            case .report: ("reports.create", #"{"tweetId":\#(repostID),"reason":"I can not see it"}"#)
            }
        }
    }

    @Test(arguments: NamingPath.allCases, Block.allCases)
    func aRepostOfAnUnseeableOriginalIsAsIfAbsent(_ path: NamingPath, _ block: Block) async throws {
        let scene = try await Scene.make(block)
        let (method, params) = path.call(scene.repostID)
        let answer = try await scene.bob.call(method, params)
        #expect(answer["error"]?["code"] == -32004, "\(method) of the repost: \(answer)")
        // The original by its own id is refused alike.
        let (_, originalParams) = path.call(scene.originalID)
        let original = try await scene.bob.call(method, originalParams)
        #expect(original["error"]?["code"] == -32004, "\(method) of the original: \(original)")
    }

    @Test(arguments: Block.allCases)
    func searchAndTagsLeaveOutTheRepostAndItsOriginal(_ block: Block) async throws {
        let scene = try await Scene.make(block)
        for (method, params) in [
            ("search.tweets", #"{"query":"secret"}"#), ("search.tweets", #"{"query":"from:carol"}"#),
            ("tags.tweets", #"{"tag":"picnic"}"#), ("timeline.user", #"{"username":"carol"}"#),
        ] {
            let answer = try await scene.bob.call(method, params)
            #expect(answer["result"]?["tweets"] == [], "\(method) \(params): \(answer)")
        }
    }

    @Test(arguments: Block.allCases)
    func theExportOfOnesOwnRepostCarriesNoneOfTheOriginal(_ block: Block) async throws {
        let scene = try await Scene.make(block)
        let answer = try await scene.bob.call("account.export", "{}")
        let tweets = try #require(answer["result"]?["tweets"])
        #expect(tweets[0]?["id"] == .number(JSONNumber(Int(scene.bobsRepostID))))
        #expect(tweets[0]?["repostOf"] == ["id": .number(JSONNumber(Int(scene.originalID))), "unavailable": true])
        #expect(
            !scene.bob.lastResponse.withLock { String(decoding: $0, as: UTF8.self) }.contains("secret"), "\(answer)")
    }

    /// Three accounts in one daemon: alice's tweet, carol's and bob's reposts of it, then the block.
    struct Scene {
        let bob: Caller
        let originalID: Int64
        let repostID: Int64
        let bobsRepostID: Int64

        static func make(_ block: Block) async throws -> Scene {
            let processor = try TestAssembly.processor()
            let alice = try await Caller.signUp("alice", uid: 1001, processor)
            let bob = try await Caller.signUp("bob", uid: 1002, processor)
            let carol = try await Caller.signUp("carol", uid: 1003, processor)
            let original = try await alice.id(of: "tweets.post", #"{"text":"secret #picnic plans"}"#)
            let repost = try await carol.id(of: "tweets.repost", #"{"id":\#(original)}"#)
            let bobsRepost = try await bob.id(of: "tweets.repost", #"{"id":\#(original)}"#)
            let (blocker, blocked) = block == .originalsAuthorBlocksReader ? (alice, "bob") : (bob, "alice")
            let blocking = try await blocker.call("users.block", #"{"username":"\#(blocked)"}"#)
            #expect(blocking["result"]?["blocked"] == true)
            return Scene(bob: bob, originalID: original, repostID: repost, bobsRepostID: bobsRepost)
        }
    }

    /// One logged-in connection to the assembled daemon, without a socket.
    final class Caller: Sendable {
        let processor: RequestProcessor<RequestContext>
        let session: ConnectionSession
        /// The bytes of the last response.
        let lastResponse = Mutex<[UInt8]>([])

        init(_ processor: RequestProcessor<RequestContext>, uid: UInt32) {
            self.processor = processor
            session = ConnectionSession(id: Int(uid), peer: PeerCredentials(userID: uid, groupID: uid, processID: 1))
        }

        static func signUp(_ name: String, uid: UInt32, _ processor: RequestProcessor<RequestContext>) async throws
            -> Caller
        {
            let caller = Caller(processor, uid: uid)
            let answer = try await caller.call(
                "auth.signup",
                #"{"email":"\#(name)@example.com","password":"correct horse battery","username":"\#(name)"}"#)
            #expect(answer["result"] != nil, "\(answer)")
            return caller
        }

        /// The whole response to `method` with `params`.
        func call(_ method: String, _ params: String) async throws -> JSONValue {
            let line = Array(#"{"jsonrpc":"2.0","method":"\#(method)","params":\#(params),"id":1}"#.utf8)
            let outcome = await processor.respond(toLine: line, context: RequestContext(session: session))
            let response = try #require(outcome.response)
            lastResponse.withLock { $0 = response }
            return try JSONParser(maximumDepth: 512).parse(response)
        }

        /// The `id` of the tweet the call answers.
        func id(of method: String, _ params: String) async throws -> Int64 {
            let answer = try await call(method, params)
            guard case .number(let number)? = answer["result"]?["id"], let id = number.int64 else {
                throw TwitterError(.internal, "\(method) answered \(answer)")
            }
            return id
        }
    }

}
