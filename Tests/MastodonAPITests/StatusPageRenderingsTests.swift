import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import MastodonAPI

/// `StatusPageRenderings`, the timelines' fast path: a kept rendering is exactly the one the slow path writes, an
/// answer that changed is rendered again, and one account never gets another's rendering.
struct StatusPageRenderingsTests {
    /// The Statuses the slow path writes for `caller`'s home page: the answer decoded, each tweet written.
    private static func freshHome(of caller: LayerCaller) async throws -> [UInt8] {
        let page = try await caller.call(API.Timelines.home, .init(limit: 20))
        return TimelineEndpoints.statusArray(page.tweets, origin: MastodonTestLayer.origin)
    }

    @Test func aKeptRenderingIsTheOneTheSlowPathWrites() async throws {
        let layer = try await MastodonTestLayer()
        let alice = try await layer.signUp("alice")
        for text in ["one #tag", "two @alice", "three https://example.com"] {
            _ = try await alice.request("POST", "/api/v1/statuses", ["status": [text]])
        }
        let first = try await alice.request("GET", "/api/v1/timelines/home")
        let again = try await alice.request("GET", "/api/v1/timelines/home")
        let fresh = try await Self.freshHome(of: alice)
        #expect(first.body == fresh)
        #expect(again.body == fresh)
        #expect(again.headers == first.headers)
        guard case .array(let statuses) = try Fixtures.parse(again.body) else {
            Issue.record("not an array")
            return
        }
        #expect(statuses.count == 3)
    }

    @Test func aChangedAnswerIsRenderedAgain() async throws {
        let layer = try await MastodonTestLayer()
        let alice = try await layer.signUp("alice")
        let posted = try await alice.json("POST", "/api/v1/statuses", ["status": ["hello"]])
        guard case .string(let id)? = posted["id"] else { throw MastodonRouteMatch.NoRoute(description: "no id") }
        let before = try await alice.json("GET", "/api/v1/timelines/home")
        #expect(before[0]?["favourited"] == false)
        _ = try await alice.request("POST", "/api/v1/statuses/\(id)/favourite")
        let liked = try await alice.request("GET", "/api/v1/timelines/home")
        #expect(liked.body == (try await Self.freshHome(of: alice)))
        let after = try Fixtures.parse(liked.body)
        #expect(after[0]?["favourited"] == true)
        #expect(after[0]?["favourites_count"] == 1)
    }

    /// bob follows alice and reads the same page she does, less her like: her rendering, kept first, is not his.
    @Test func anAccountNeverGetsAnothersRendering() async throws {
        let layer = try await MastodonTestLayer()
        let alice = try await layer.signUp("alice")
        let bob = try await layer.signUp("bob")
        let posted = try await alice.json("POST", "/api/v1/statuses", ["status": ["hello"]])
        guard case .string(let id)? = posted["id"] else { throw MastodonRouteMatch.NoRoute(description: "no id") }
        _ = try await alice.request("POST", "/api/v1/statuses/\(id)/favourite")
        _ = try await alice.request("POST", "/api/v1/statuses/\(id)/bookmark")
        _ = try await bob.request("POST", "/api/v1/accounts/alice/follow")
        let hers = try await alice.json("GET", "/api/v1/timelines/home")
        #expect(hers[0]?["favourited"] == true)
        #expect(hers[0]?["bookmarked"] == true)
        let his = try await bob.json("GET", "/api/v1/timelines/home")
        #expect(his[0]?["id"] == .string(id))
        #expect(his[0]?["favourited"] == false)
        #expect(his[0]?["bookmarked"] == false)
    }

    @Test func theOriginIsPartOfTheKey() throws {
        let renderings = StatusPageRenderings()
        let answer = Array(#"{"newestId":null,"oldestId":null,"tweets":[]}"#.utf8)
        let one = try renderings.rendering(of: answer, context: "http://a") { () throws(RPCError) in
            .init(body: Array("a".utf8), newestID: nil, oldestID: nil)
        }
        let other = try renderings.rendering(of: answer, context: "http://b") { () throws(RPCError) in
            .init(body: Array("b".utf8), newestID: nil, oldestID: nil)
        }
        let kept = try renderings.rendering(of: answer, context: "http://a") { () throws(RPCError) in
            Issue.record("rendered again")
            return .init(body: [], newestID: nil, oldestID: nil)
        }
        #expect(one.body == Array("a".utf8))
        #expect(other.body == Array("b".utf8))
        #expect(kept.body == Array("a".utf8))
    }

    @Test func theKeptBytesStayWithinTheBudget() throws {
        let renderings = StatusPageRenderings(byteBudget: 1000)
        for index in 0..<50 {
            let answer = Array(#"{"tweets":[\#(index)]}"#.utf8)
            let rendering = try renderings.rendering(of: answer, context: "http://a") { () throws(RPCError) in
                .init(body: Array(repeating: UInt8(ascii: "x"), count: 100), newestID: Int64(index), oldestID: nil)
            }
            #expect(rendering.newestID == Int64(index))
            #expect(renderings.usage.byteCount <= 1000)
        }
        #expect(renderings.usage.count > 0)
        // Larger than the whole budget: answered, never kept.
        let huge = try renderings.rendering(of: [1], context: "http://a") { () throws(RPCError) in
            .init(body: Array(repeating: 0, count: 2000), newestID: nil, oldestID: nil)
        }
        #expect(huge.body.count == 2000)
        #expect(renderings.usage.byteCount <= 1000)
    }
}
