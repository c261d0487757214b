import Testing

@testable import MastodonAPI

/// Mastodon's paging params onto ours, and the `Link` header toot and Mastodon.py follow.
struct PagingTests {
    static func request(_ params: [String: [String]], path: [String: String] = [:]) -> MastodonRequest {
        MastodonRequest(
            method: "GET", pathParameters: path, params: MastodonParams(params), origin: "http://127.0.0.1:3000",
            idempotencyKey: nil)
    }

    @Test func nextComesFirstThenPrevWithTheRequestsOtherParams() throws {
        let request = Self.request(["limit": ["2"], "max_id": ["99"], "types": ["mention"], "q": ["a b"]])
        let link = MastodonLink.header(for: request, path: "/api/v1/notifications", next: "8", previous: "12")
        #expect(link?.name == "Link")
        #expect(
            link?.value
                == #"<http://127.0.0.1:3000/api/v1/notifications?limit=2&q=a%20b&types%5B%5D=mention&max_id=8>; rel="next", <http://127.0.0.1:3000/api/v1/notifications?limit=2&q=a%20b&types%5B%5D=mention&min_id=12>; rel="prev""#
        )
    }

    @Test func noLinkWithoutPagesAndPathParametersFilledIn() {
        let request = Self.request([:], path: ["id": "alice"])
        #expect(
            MastodonLink.header(for: request, path: "/api/v1/accounts/:id/followers", next: nil, previous: nil) == nil)
        #expect(
            MastodonLink.header(for: request, path: "/api/v1/accounts/:id/followers", next: "c1", previous: nil)?.value
                == #"<http://127.0.0.1:3000/api/v1/accounts/alice/followers?max_id=c1>; rel="next""#)
    }

    @Test func pagingParamsMapOntoOurs() throws {
        let paging = try MastodonPaging(MastodonParams(["max_id": ["10"], "min_id": ["3"], "limit": ["500"]]))
        #expect(try paging.maxTweetID() == 10)
        #expect(paging.lowerID == 3)
        #expect(paging.limit(.tweets) == 200)
        #expect(try MastodonPaging(MastodonParams(["limit": ["0"]])).limit(.tweets) == 1)
        #expect(try MastodonPaging(MastodonParams([:])).limit(.tweets) == nil)
        #expect(throws: MastodonError.unprocessable("since_id must be an id")) {
            try MastodonPaging(MastodonParams(["since_id": ["x"]]))
        }
        #expect(throws: MastodonError.unprocessable("max_id must be a status id")) {
            try MastodonPaging(MastodonParams(["max_id": ["abc"]])).maxTweetID()
        }
    }
}
