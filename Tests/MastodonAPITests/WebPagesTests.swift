import Foundation
import Testing

@testable import MastodonAPI

/// The pages' pure parts: which path is which page, and dates for people.
struct WebPagesTests {
    @Test(arguments: [
        ("/", WebPages.Route.home), ("/@alice", .profile("alice")), ("/@alice/", .profile("alice")),
        ("/@alice/42", .tweet("alice", 42)), ("/tags/Swift", .tag("Swift")), ("/tags/caf%C3%A9", .tag("café")),
    ])
    func aPagesPathNamesItsRoute(path: String, route: WebPages.Route) {
        #expect(WebPages.route(path[...]) == route)
    }

    @Test(arguments: ["/@", "/@alice/x", "/@alice/0", "/@alice/1/2", "/tags", "/alice", "/api/v1/instance"])
    func anyOtherPathIsNoPage(path: String) {
        #expect(WebPages.route(path[...]) == nil)
    }

    @Test func onlyGetsOfThePagesPathsAreServedAsPages() {
        #expect(WebPages.serves(method: "GET", path: "/@alice"))
        #expect(WebPages.serves(method: "GET", path: "/"))
        #expect(!WebPages.serves(method: "POST", path: "/@alice"))
        #expect(WebPages.serves(method: "HEAD", path: "/@alice") && WebPages.serves(method: "HEAD", path: "/tags/a"))
        #expect(!WebPages.serves(method: "GET", path: "/api/v1/instance"))
    }

    @Test func datesReadAsPeopleSayThem() throws {
        let now = try Date("2026-11-27T12:00:00Z", strategy: .iso8601)
        #expect(WebDate.human(now.addingTimeInterval(-30), now: now) == "now")
        #expect(WebDate.human(now.addingTimeInterval(-5 * 60), now: now) == "5m")
        #expect(WebDate.human(now.addingTimeInterval(-3 * 3600 - 59), now: now) == "3h")
        #expect(WebDate.human(now.addingTimeInterval(-2 * 86_400), now: now) == "Nov 25")
        #expect(WebDate.human(try Date("2024-03-01T00:00:00Z", strategy: .iso8601), now: now) == "Mar 1, 2024")
    }

    @Test func aPageIsHTMLWithItsTitleCanonicalLinkOpenGraphTagsAndNoScript() {
        let page = WebPage(title: "<x> & y", summary: "s", path: "/@a", body: "<p>hi</p>")
        let response = WebLayout.response(page, origin: "http://127.0.0.1:3000")
        let html = String(decoding: response.body, as: UTF8.self)
        #expect(response.status == 200)
        #expect(response.headers.contains { $0.name == "Content-Type" && $0.value == "text/html; charset=utf-8" })
        #expect(
            response.headers.contains {
                $0.name == "Content-Security-Policy" && $0.value.hasPrefix("default-src 'none'")
            })
        #expect(html.contains("<title>&lt;x&gt; &amp; y</title>"))
        #expect(html.contains(#"<link rel="canonical" href="http://127.0.0.1:3000/@a">"#))
        #expect(html.contains(#"<meta property="og:title" content="&lt;x&gt; &amp; y">"#))
        #expect(html.contains("prefers-color-scheme:dark") && !html.contains("<script"))
        #expect(WebLayout.response(.notFound("/@x"), origin: "").status == 404)
    }
}
