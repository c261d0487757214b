import Foundation
import JSONRPC
import Testing

@testable import MastodonAPI

/// Params from the bytes clients send: queries, forms, JSON and multipart, as toot and Mastodon.py send them.
struct MastodonParamsDecodingTests {
    private func decode(query: String? = nil, _ body: String = "", type: String? = nil) throws(MastodonError)
        -> MastodonParams
    {
        try MastodonParams.decode(query: query.map { $0[...] }, body: Array(body.utf8), contentType: type)
    }

    @Test func aMediaTypeIsItsTypeAndAttributesLessTheirBlanks() {
        let (type, attributes) = MastodonParams.mediaType(
            " \tMultipart/Form-Data ;  boundary=\"a b\"\t; charset = utf-8 ")
        #expect(type == "multipart/form-data")
        #expect(attributes == ["boundary": "a b", "charset": "utf-8"])
        #expect(MastodonParams.mediaType("application/json").0 == "application/json")
        #expect(MastodonParams.mediaType(" \t ").0 == "")
        #expect(MastodonParams.mediaType("").0 == "")
    }

    @Test func queriesPercentDecodeTakePlusAsSpaceAndGatherArrays() throws {
        let params = try decode(query: "q=hello+world%40x&types%5B%5D=a&types[]=b&id[0]=7&id[1]=8&flag&=x&bad=%zz")
        #expect(params.strings("q") == ["hello world@x"])
        #expect(params.strings("types") == ["a", "b"])
        #expect(params.strings("id") == ["7", "8"])
        #expect(params.string("flag") == "")
        #expect(params.string("bad") == "%zz", "a broken escape stays as sent")
        #expect(params.values[""] == nil)
    }

    @Test func formsComeAfterTheQueryAndUTF8Survives() throws {
        let params = try decode(
            query: "a=1", "a=2&status=caf%C3%A9+%E2%9C%93", type: "application/x-www-form-urlencoded; charset=utf-8")
        #expect(params.strings("a") == ["1", "2"])
        #expect(params.string("status") == "café ✓")
    }

    @Test func jsonObjectsFlattenScalarsArraysAndNestedObjects() throws {
        let params = try decode(
            #"{"status":"hi","sensitive":false,"in_reply_to_id":"9","n":3,"media_ids":[],"account_ids":["2","3"],"#
                + #""poll":{"options":["a","b"],"expires_in":60},"gone":null}"#,
            type: "application/json")
        #expect(params.string("status") == "hi")
        #expect(params.string("sensitive") == "false")
        #expect(params.string("n") == "3")
        #expect(params.strings("account_ids") == ["2", "3"])
        #expect(params.strings("media_ids").isEmpty)
        #expect(params.strings("poll[options]") == ["a", "b"])
        #expect(params.string("poll[expires_in]") == "60")
        #expect(params.values["gone"] == nil)
    }

    @Test func multipartPartsAreTextAndFilesAreLeftOut() throws {
        let body =
            "--b0\r\nContent-Disposition: form-data; name=\"status\"\r\n\r\nline one\r\nline two\r\n"
            + "--b0\r\nContent-Disposition: form-data; name=\"types[]\"\r\n\r\nmention\r\n"
            + "--b0\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.png\"\r\n"
            + "Content-Type: image/png\r\n\r\n\u{1}\u{2}\r\n--b0--\r\n"
        let params = try decode(body, type: "multipart/form-data; boundary=\"b0\"")
        #expect(params.string("status") == "line one\r\nline two")
        #expect(params.strings("types") == ["mention"])
        #expect(params.values["file"] == nil)
    }

    @Test func malformedBodiesAreClearErrors() {
        let cases: [(String, String, Int)] = [
            ("{nope", "application/json", 400),
            ("[1,2]", "application/json", 400),
            ("--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n", "multipart/form-data; boundary=x", 400),
            ("a", "multipart/form-data", 400),
            ("<a/>", "application/xml", 415),
        ]
        for (body, type, status) in cases {
            #expect(throws: MastodonError.self) { try decode(body, type: type) }
            do {
                _ = try decode(body, type: type)
            } catch {
                #expect(error.status == status, "\(type): \(body)")
                #expect(!error.message.isEmpty)
            }
        }
    }
}

/// Paths to endpoints: captured segments, trailing slashes, 404 and 405.
struct MastodonEndpointTableTests {
    private static func endpoint(_ method: String, _ path: String) -> MastodonEndpoint {
        MastodonEndpoint(method, path) { _, _ in MastodonResponse(status: 200, headers: [], body: Array(path.utf8)) }
    }

    let table = MastodonEndpointTable([
        endpoint("GET", "/api/v1/instance"),
        endpoint("GET", "/api/v1/statuses/:id"),
        endpoint("DELETE", "/api/v1/statuses/:id"),
        endpoint("POST", "/api/v1/statuses/:id/favourite"),
        endpoint("GET", "/api/v1/accounts/relationships"),
        endpoint("GET", "/api/v1/accounts/:id"),
    ])

    @Test func exactAndPatternedPathsMatchWithOrWithoutATrailingSlash() {
        guard case .found(let instance, let none) = table.match(method: "GET", path: "/api/v1/instance/") else {
            Issue.record("no match")
            return
        }
        #expect(instance.path == "/api/v1/instance" && none.isEmpty)
        guard case .found(let status, let captured) = table.match(method: "POST", path: "/api/v1/statuses/42/favourite")
        else {
            Issue.record("no match")
            return
        }
        #expect(status.path == "/api/v1/statuses/:id/favourite")
        #expect(captured == ["id": "42"])
        guard case .found(let exact, _) = table.match(method: "GET", path: "/api/v1/accounts/relationships") else {
            Issue.record("no match")
            return
        }
        #expect(exact.path == "/api/v1/accounts/relationships", "an exact path wins over a pattern")
    }

    @Test func anUnknownPathIsNotFoundAndAKnownOneWithAnotherMethodSaysWhichItTakes() {
        guard case .notFound = table.match(method: "GET", path: "/api/v1/statuses/42/nothing") else {
            Issue.record("expected 404")
            return
        }
        guard case .wrongMethod(let allowed) = table.match(method: "PUT", path: "/api/v1/statuses/42") else {
            Issue.record("expected 405")
            return
        }
        #expect(allowed == ["DELETE", "GET"])
    }
}

/// The layer's errors as Mastodon's statuses.
struct MastodonErrorMappingTests {
    @Test func eachCodeHasItsStatus() {
        let table: [(Int, Int)] = [
            (-32001, 401), (-32002, 401), (-32003, 403), (-32004, 404), (-32601, 404), (-32602, 422),
            (-32600, 422), (-32005, 422), (-32006, 429), (-32008, 503), (-32603, 500), (-32099, 500),
        ]
        for (code, status) in table {
            let error = MastodonError(RPCError(code: code, message: "m", kind: "k"))
            #expect(error.status == status, "\(code)")
            #expect(error.body == Array(#"{"error":"m"}"#.utf8))
        }
    }

    @Test func aRateErrorCarriesTheRateLimitHeaders() {
        let error = MastodonError(
            RPCError(
                code: -32006, message: "Too many posts", kind: "rate_limited",
                ["retryAfter": .number(JSONNumber(30)), "limit": .number(JSONNumber(300))]),
            now: Date(timeIntervalSince1970: 1_790_000_000))
        #expect(error.status == 429)
        let headers = Dictionary(uniqueKeysWithValues: error.headers.map { ($0.name, $0.value) })
        #expect(headers["X-RateLimit-Limit"] == "300")
        #expect(headers["X-RateLimit-Remaining"] == "0")
        #expect(headers["X-RateLimit-Reset"] == "2026-09-21T14:13:50.000Z")
        #expect(headers["Retry-After"] == "30")
    }

    @Test func invalidParamsNameTheirFields() {
        let error = MastodonError(RPCError.invalidParams(fields: ["text": "must not be empty"], detail: nil))
        #expect(error.status == 422)
        #expect(error.message.contains("text must not be empty"), "\(error.message)")
    }
}
