import Foundation
import JSONRPC
import MastodonAPI
import Testing
import TwitterAPI

@testable import TwitterServer

/// /api/v1/apps and /oauth/* over the real request layer in process: they only translate, so what is tested is
/// Mastodon's shape of each answer and refusal.
struct OAuthEndpointTests {
    /// The layer as an endpoint reaches it, as the connection `caller` (logged in or not).
    struct LayerCaller: MastodonCaller {
        let processor: RequestProcessor<RequestContext>
        let caller: Caller

        func encodedCall<Params, Result>(_ method: RPCMethod<Params, Result>, _ params: Params)
            async throws(RPCError) -> [UInt8]
        {
            try await processor.encodedCall(method, params, context: RequestContext(session: caller.session))
        }
    }

    static func serve(
        _ method: String, _ path: String, _ params: [String: [String]], as caller: Caller, on daemon: InProcessDaemon
    ) async throws -> (status: Int, json: JSONValue?, body: String) {
        let endpoint = try #require(OAuthEndpoints.all.first { $0.method == method && $0.path == path })
        let request = MastodonRequest(
            method: method, pathParameters: [:], params: MastodonParams(params), origin: "http://127.0.0.1:3000",
            idempotencyKey: nil)
        do {
            let response = try await endpoint.handle(request, LayerCaller(processor: daemon.processor, caller: caller))
            let body = String(decoding: response.body, as: UTF8.self)
            return (response.status, try? JSONParser().parse(response.body), body)
        } catch let error as MastodonError {
            return (error.status, nil, error.message)
        }
    }

    static func register(_ caller: Caller, on daemon: InProcessDaemon) async throws -> (id: String, secret: String) {
        let app = try await serve(
            "POST", "/api/v1/apps",
            [
                "client_name": ["toot"], "redirect_uris": ["urn:ietf:wg:oauth:2.0:oob"],
                "scopes": ["read write follow push"],
            ],
            as: caller, on: daemon)
        #expect(app.status == 200)
        return (try #require(app.json?["client_id"]?.textValue), try #require(app.json?["client_secret"]?.textValue))
    }

    @Test func appsAnswersMastodonsApplicationAndRefusesANameless() async throws {
        let daemon = try await InProcessDaemon()
        let client = daemon.connect()
        let app = try await Self.serve(
            "POST", "/api/v1/apps",
            ["client_name": ["twtest"], "redirect_uris": ["urn:ietf:wg:oauth:2.0:oob"], "scopes": ["read write"]],
            as: client, on: daemon)
        #expect(app.status == 200)
        #expect(app.json?["name"] == .string("twtest") && app.json?["vapid_key"] == .null)
        #expect(app.json?["redirect_uri"] == .string("urn:ietf:wg:oauth:2.0:oob"))
        #expect(app.json?["scopes"] == .array([.string("read"), .string("write")]))
        #expect(app.json?["client_id"]?.textValue?.hasPrefix("twc_") == true)
        #expect(app.json?["id"]?.textValue != nil, "ids are strings")
        let arrays = try await Self.serve(
            "POST", "/api/v1/apps",
            [
                "client_name": ["t"], "redirect_uris": ["urn:ietf:wg:oauth:2.0:oob", "https://a.example/cb"],
                "scopes": ["read", "write"],
            ], as: client, on: daemon)
        #expect(arrays.json?["scopes"] == .array([.string("read"), .string("write")]))
        #expect(arrays.json?["redirect_uri"] == .string("urn:ietf:wg:oauth:2.0:oob\nhttps://a.example/cb"))
        let nameless = try await Self.serve(
            "POST", "/api/v1/apps", ["redirect_uris": ["urn:ietf:wg:oauth:2.0:oob"]], as: client, on: daemon)
        #expect(nameless.status == 422)
        let badScope = try await Self.serve(
            "POST", "/api/v1/apps", ["client_name": ["x"], "redirect_uris": ["a"], "scopes": ["everything"]],
            as: client, on: daemon)
        #expect(badScope.status == 422)
    }

    @Test func tokenGrantsAsDoorkeeperAnswersAndRefusesAsItDoes() async throws {
        let daemon = try await InProcessDaemon()
        _ = try await daemon.signUp("alice")
        let client = daemon.connect()
        let (id, secret) = try await Self.register(client, on: daemon)
        let grant: [String: [String]] = [
            "grant_type": ["password"], "client_id": [id], "client_secret": [secret],
            "username": ["alice@example.com"], "password": [InProcessDaemon.password],
            "scope": ["read write follow push"], "redirect_uri": ["urn:ietf:wg:oauth:2.0:oob"],
        ]
        let granted = try await Self.serve("POST", "/oauth/token", grant, as: client, on: daemon)
        #expect(granted.status == 200)
        #expect(granted.json?["token_type"] == .string("Bearer"))
        #expect(granted.json?["scope"] == .string("read write follow push"))
        #expect(granted.json?["created_at"]?.isNumber == true)
        let token = try #require(granted.json?["access_token"]?.textValue)

        var wrongSecret = grant
        wrongSecret["client_secret"] = ["twk_wrong"]
        let client401 = try await Self.serve("POST", "/oauth/token", wrongSecret, as: client, on: daemon)
        #expect(client401.status == 401 && client401.json?["error"] == .string("invalid_client"))
        var wrongPassword = grant
        wrongPassword["password"] = ["not it"]
        let grant400 = try await Self.serve("POST", "/oauth/token", wrongPassword, as: client, on: daemon)
        #expect(grant400.status == 400 && grant400.json?["error"] == .string("invalid_grant"))
        #expect(grant400.json?["error_description"]?.textValue != nil)
        let missing = try await Self.serve("POST", "/oauth/token", ["grant_type": ["password"]], as: client, on: daemon)
        #expect(missing.status == 400 && missing.json?["error"] == .string("invalid_request"))

        let login = daemon.connect()
        _ = try await login.call(API.Auth.login, AuthRouteTests.tokenLogin(token))
        let verified = try await Self.serve("GET", "/api/v1/apps/verify_credentials", [:], as: login, on: daemon)
        #expect(verified.status == 200 && verified.json?["name"] == .string("toot"))
        #expect(verified.json?["client_secret"] == nil, "never shown again")
        let anonymous = try await Self.serve("GET", "/api/v1/apps/verify_credentials", [:], as: client, on: daemon)
        #expect(anonymous.status == 401)

        let revoke: [String: [String]] = ["client_id": [id], "client_secret": [secret], "token": [token]]
        let revoked = try await Self.serve("POST", "/oauth/revoke", revoke, as: client, on: daemon)
        #expect(revoked.status == 200 && revoked.body == "{}")
        #expect(try await login.refusal(API.Auth.whoami).code == -32001, "its login ended")
        var badRevoke = revoke
        badRevoke["client_secret"] = ["twk_wrong"]
        #expect(try await Self.serve("POST", "/oauth/revoke", badRevoke, as: client, on: daemon).status == 401)
    }

    @Test func authorizeIsAPageThatNamesTwctl() async throws {
        let daemon = try await InProcessDaemon()
        for path in ["/oauth/authorize", "/oauth/authorize/"] {
            let page = try await Self.serve(
                "GET", path, ["client_id": ["twc_abc"], "scope": ["read write"], "response_type": ["code"]],
                as: daemon.connect(), on: daemon)
            #expect(page.status == 200 && page.body.contains("twctl oauth authorize twc_abc --scope \"read write\""))
        }
        let hostile = try await Self.serve(
            "GET", "/oauth/authorize", ["client_id": ["$(rm -rf ~)"], "scope": ["read\"; rm"]], as: daemon.connect(),
            on: daemon)
        #expect(!hostile.body.contains("$(") && !hostile.body.contains("rm\""), "nothing a shell would run")
    }
}

extension JSONValue {
    fileprivate var textValue: String? {
        if case .string(let text) = self { text } else { nil }
    }

    fileprivate var isNumber: Bool {
        if case .number = self { true } else { false }
    }
}
