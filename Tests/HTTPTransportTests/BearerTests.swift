import Foundation
import JSONRPC
import MastodonAPI
import TestSupport
import Testing
import TwitterAPI

@testable import HTTPTransport

/// `Authorization: Bearer` logs the connection in through the layer, once per connection, and a revocation made
/// elsewhere reaches the cached login.
@Suite(.serialized) struct BearerTests {
    @Test func aPersonalTokenLogsInAndKeepAliveRequestsReuseTheLogin() async throws {
        let fixture = try await HTTPFixture()
        let alice = try await fixture.personalToken("alice")
        let client = try fixture.tcpClient()
        for _ in 0..<3 {
            let response = try #require(
                client.call("GET", "/api/v1/test/whoami", headers: ["Authorization": "Bearer \(alice.token)"]))
            #expect(response.status == 200)
            #expect(response.json?["username"] == "alice")
        }
    }

    @Test func theTokenIsTheHeadersValueLessItsBlanks() throws {
        #expect(try BearerLogin.token(fromHeader: nil) == nil)
        #expect(try BearerLogin.token(fromHeader: "Bearer abc") == "abc")
        #expect(try BearerLogin.token(fromHeader: "  bearer \t abc \t ") == "abc")
        #expect(throws: MastodonError.self) { try BearerLogin.token(fromHeader: "Bearer  \t ") }
        #expect(throws: MastodonError.self) { try BearerLogin.token(fromHeader: "Basic abc") }
        #expect(throws: MastodonError.self) { try BearerLogin.token(fromHeader: "Bearer") }
    }

    @Test func noTokenABadTokenAndAnotherSchemeAre401() async throws {
        let fixture = try await HTTPFixture()
        let client = try fixture.unixClient()
        let anonymous = try #require(client.call("GET", "/api/v1/test/whoami"))
        #expect(anonymous.status == 401)
        #expect(anonymous.json?["error"] != nil)
        let bad = try #require(
            client.call("GET", "/api/v1/test/whoami", headers: ["Authorization": "Bearer twp_not-a-token"]))
        #expect(bad.status == 401)
        #expect(bad.json?["error"] == "The access token is invalid")
        let basic = try #require(client.call("GET", "/api/v1/test/whoami", headers: ["Authorization": "Basic eDp5"]))
        #expect(basic.status == 401)
    }

    @Test func aRevokedTokenIsRefusedOnTheConnectionThatCachedIt() async throws {
        let fixture = try await HTTPFixture()
        let alice = try await fixture.personalToken("alice")
        let client = try fixture.tcpClient()
        let bearer = ["Authorization": "Bearer \(alice.token)"]
        #expect(client.call("GET", "/api/v1/test/whoami", headers: bearer)?.status == 200)
        try await fixture.revoke(alice.token, id: alice.id)
        let after = try #require(client.call("GET", "/api/v1/test/whoami", headers: bearer))
        #expect(after.status == 401)
        #expect(try fixture.tcpClient().call("GET", "/api/v1/test/whoami", headers: bearer)?.status == 401)
    }

    @Test func anotherAccountsTokenOnTheSameConnectionIsThatAccount() async throws {
        let fixture = try await HTTPFixture()
        let alice = try await fixture.personalToken("alice")
        let bob = try await fixture.personalToken("bob")
        let client = try fixture.tcpClient()
        #expect(
            client.call("GET", "/api/v1/test/whoami", headers: ["Authorization": "Bearer \(alice.token)"])?
                .json?["username"] == "alice")
        #expect(
            client.call("GET", "/api/v1/test/whoami", headers: ["Authorization": "Bearer \(bob.token)"])?
                .json?["username"] == "bob")
        #expect(client.call("GET", "/api/v1/test/whoami")?.status == 401, "no token: nobody, not the last one")
    }

    /// Doorkeeper refuses a token only where one is required: an unknown or revoked bearer leaves the caller
    /// anonymous on an open endpoint (Mastodon.py, holding a revoked token, asks the instance as it starts), and a
    /// call that needs a login is refused 401 with the token's reason.
    @Test func anUnknownOrRevokedBearerIsAnonymousOnAnOpenEndpointAndRefusedWhereALoginIsNeeded() async throws {
        let fixture = try await HTTPFixture()
        let alice = try await fixture.personalToken("alice")
        let client = try fixture.tcpClient()
        let unknown = ["Authorization": "Bearer twp_not-a-token"]
        for path in ["/api/v1/instance/", "/api/v2/instance/"] {
            let instance = try #require(client.call("GET", path, headers: unknown))
            #expect(instance.status == 200, "\(path): \(instance.body)")
        }
        let refused = try #require(client.call("GET", "/api/v1/test/whoami", headers: unknown))
        #expect(refused.status == 401)
        #expect(refused.json?["error"] == "The access token is invalid")

        let bearer = ["Authorization": "Bearer \(alice.token)"]
        #expect(client.call("GET", "/api/v1/test/whoami", headers: bearer)?.status == 200)
        try await fixture.revoke(alice.token, id: alice.id)
        #expect(client.call("GET", "/api/v1/instance/", headers: bearer)?.status == 200, "the cached login")
        #expect(try fixture.unixClient().call("GET", "/api/v1/instance/", headers: bearer)?.status == 200)
        let after = try #require(client.call("GET", "/api/v1/test/whoami", headers: bearer))
        #expect(after.status == 401)
        #expect(after.json?["error"] == "The access token is invalid")
    }

    /// An app's own token (client_credentials) logs nobody in: open endpoints answer, apps/verify_credentials
    /// answers the app, and an endpoint that needs a user is 401.
    @Test func anAppTokenIsItsAppAndNoUser() async throws {
        let fixture = try await HTTPFixture()
        let token = try await fixture.appToken("tooter")
        let client = try fixture.tcpClient()
        let bearer = ["Authorization": "Bearer \(token)"]
        let app = try #require(client.call("GET", "/api/v1/apps/verify_credentials", headers: bearer))
        #expect(app.status == 200, "\(app.body)")
        #expect(app.json?["name"] == "tooter")
        #expect(app.json?["client_secret"] == nil)
        #expect(client.call("GET", "/api/v1/instance", headers: bearer)?.status == 200)
        let user = try #require(client.call("GET", "/api/v1/test/whoami", headers: bearer))
        #expect(user.status == 401)
        #expect(user.json?["error"] == "This method requires an authenticated user")
        let stranger = try #require(
            try fixture.unixClient().call(
                "GET", "/api/v1/apps/verify_credentials", headers: ["Authorization": "Bearer twp_not-a-token"]))
        #expect(stranger.status == 401)
    }
}
