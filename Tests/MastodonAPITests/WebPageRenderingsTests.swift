import Foundation
import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import MastodonAPI

/// `WebPageRenderings`, the web pages' fast path: a kept page is exactly the one the slow path writes, and any
/// change to what it shows (a post, a bio, an account going off the web, a minute passing) is seen at once.
struct WebPageRenderingsTests {
    private static let now = Date(timeIntervalSince1970: 1_800_000_000.25)

    private static func page(_ path: String, at now: Date = now, by caller: LayerCaller) async -> MastodonResponse {
        await WebPages.respond(path: path[...], query: nil, origin: MastodonTestLayer.origin, now: now, caller: caller)
    }

    /// What the slow path writes for `route`: the answers read afresh, decoded and rendered.
    private static func fresh(_ route: WebPages.Route, at now: Date = now, by caller: LayerCaller) async throws
        -> [UInt8]
    {
        let second = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let reader = WebPageReader(caller: caller, view: WebTweetView(origin: MastodonTestLayer.origin, now: second))
        let answers = try await reader.answers(route, maxID: nil)
        return WebLayout.response(
            try reader.page(route, maxID: nil, answers: answers), origin: MastodonTestLayer.origin
        )
        .body
    }

    private static func html(_ response: MastodonResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    @Test func aKeptPageIsTheOneTheSlowPathWrites() async throws {
        let layer = try await MastodonTestLayer()
        let alice = try await layer.signUp("alice")
        for text in ["one #tag", "two @alice", "three <b>https://example.com</b>"] {
            _ = try await alice.request("POST", "/api/v1/statuses", ["status": [text]])
        }
        for (path, route) in [("/@alice", WebPages.Route.profile("alice")), ("/", .home), ("/tags/tag", .tag("tag"))] {
            let first = await Self.page(path, by: alice)
            let again = await Self.page(path, by: alice)
            #expect(first.status == 200)
            #expect(first.body == (try await Self.fresh(route, by: alice)))
            #expect(again.body == first.body)
            #expect(again.headers == first.headers)
        }
        #expect(Self.html(await Self.page("/@alice", by: alice)).contains("&lt;b&gt;"))
    }

    @Test func aChangeToWhatThePageShowsIsSeenAtOnce() async throws {
        let layer = try await MastodonTestLayer()
        let alice = try await layer.signUp("alice")
        _ = try await alice.request("POST", "/api/v1/statuses", ["status": ["first"]])
        #expect(Self.html(await Self.page("/@alice", by: alice)).contains("first"))
        _ = try await alice.request("POST", "/api/v1/statuses", ["status": ["second"]])
        #expect(Self.html(await Self.page("/@alice", by: alice)).contains("second"))
        // A bio is no commit of the read model's, but it is part of the account's answer.
        _ = try await alice.call(API.Profiles.update, .init(bio: "a new bio"))
        let updated = await Self.page("/@alice", by: alice)
        #expect(Self.html(updated).contains("a new bio"))
        #expect(updated.body == (try await Self.fresh(.profile("alice"), by: alice)))
        _ = try await alice.call(API.Profiles.update, .init(webVisible: false))
        #expect(await Self.page("/@alice", by: alice).status == 404)
        #expect(!Self.html(await Self.page("/", by: alice)).contains("second"))
    }

    @Test func aPageIsRenderedAgainAsTimePasses() async throws {
        let layer = try await MastodonTestLayer()
        let alice = try await layer.signUp("alice")
        _ = try await alice.request("POST", "/api/v1/statuses", ["status": ["hello"]])
        let posted = try await alice.call(API.Web.timeline, .init(username: "alice")).tweets[0].createdAt
        let soon = await Self.page("/@alice", at: posted.addingTimeInterval(10), by: alice)
        let later = await Self.page("/@alice", at: posted.addingTimeInterval(5 * 60 + 10), by: alice)
        #expect(Self.html(soon).contains(">now<"))
        #expect(Self.html(later).contains(">5m<"))
        #expect(later.body == (try await Self.fresh(.profile("alice"), at: posted.addingTimeInterval(310), by: alice)))
    }

    @Test func theKeptBytesStayWithinTheBudget() throws {
        let renderings = WebPageRenderings(byteBudget: 1000)
        for index in 0..<50 {
            let page = try renderings.rendering(of: [UInt8(index)], context: "/@a") { () throws(RPCError) in
                MastodonResponse(status: 200, headers: [], body: Array(repeating: UInt8(index), count: 100))
            }
            #expect(page.body.first == UInt8(index))
            #expect(renderings.usage.byteCount <= 1000)
        }
        let kept = try renderings.rendering(of: [49], context: "/@a") { () throws(RPCError) in
            Issue.record("rendered again")
            return MastodonResponse(status: 500, headers: [], body: [])
        }
        #expect(kept.body.first == 49)
    }
}
