import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// `oauth.*`: apps, the three grants, revocation and codes, and an access token's login bound to its scopes.
struct OAuthRouteTests: RouteTesting {
    static let routes = [
        API.OAuth.register.name, API.OAuth.token.name, API.OAuth.revoke.name, API.OAuth.authorize.name,
        API.OAuth.current.name, API.OAuth.verify.name,
    ]

    static let outOfBand = "urn:ietf:wg:oauth:2.0:oob"

    static func register(_ caller: Caller, scopes: String = "read write follow push") async throws -> API.OAuth.App {
        try await caller.call(
            API.OAuth.register, .init(name: "toot", redirectUris: [outOfBand], scopes: scopes, website: nil))
    }

    static func passwordGrant(
        _ app: API.OAuth.App, user: String = "alice", password: String = InProcessDaemon.password,
        scope: String? = "read write follow push", secret: String? = nil
    ) -> API.OAuth.TokenParams {
        .init(
            grantType: "password", clientId: app.clientId, clientSecret: secret ?? app.clientSecret ?? "",
            scope: scope, username: "\(user)@example.com", password: password)
    }

    static func oauthError(_ error: RPCError) -> String? {
        if case .object(let members) = error.data, case .string(let code)? = members["oauthError"] { code } else { nil }
    }

    @Test func aPasswordGrantLogsInWithItsScopesAndRepeatsThem() async throws {
        let daemon = try await InProcessDaemon()
        _ = try await daemon.signUp("alice")
        let client = daemon.connect()
        let app = try await Self.register(client)
        #expect(app.clientSecret?.hasPrefix("twk_") == true && app.scopes == "follow push read write")
        let granted = try await client.call(API.OAuth.token, Self.passwordGrant(app))
        #expect(granted.scope == "read write follow push" && granted.tokenType == "Bearer")
        #expect(granted.accessToken.hasPrefix("twp_"))
        let login = daemon.connect()
        _ = try await login.call(API.Auth.login, AuthRouteTests.tokenLogin(granted.accessToken))
        #expect(try await login.call(API.Auth.whoami).user.username == "alice")
        #expect(try await login.call(API.OAuth.current).clientId == app.clientId)
        #expect(try await login.call(API.OAuth.current).clientSecret == nil, "the secret is shown once")
        _ = try await login.call(API.Tweets.post, .init(text: "from toot"))
        // A token never mints another credential, whatever its scopes.
        #expect(try await login.refusal(API.Tokens.list).code == -32003)
        #expect(try await login.refusal(API.OAuth.authorize, .init(clientId: app.clientId)).code == -32003)
        #expect(try await client.refusal(API.OAuth.current).code == -32001)
    }

    @Test func aReadOnlyTokenThatWritesIsRefusedOutsideItsScopes() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let app = try await Self.register(alice)
        let granted = try await alice.call(API.OAuth.token, Self.passwordGrant(app, scope: "read"))
        #expect(granted.scope == "read")
        let reader = daemon.connect()
        _ = try await reader.call(API.Auth.login, AuthRouteTests.tokenLogin(granted.accessToken))
        _ = try await reader.call(API.Timelines.home, .init())
        let refused = try await reader.refusal(API.Tweets.post, .init(text: "not allowed"))
        #expect(refused.code == -32003 && refused.message == "This action is outside the authorized scopes")
        #expect(try await reader.refusal(API.Users.follow, .init(username: "alice")).code == -32003)
        // A child scope covers only itself.
        let poster = try await alice.call(API.OAuth.token, Self.passwordGrant(app, scope: "write:statuses"))
        let writer = daemon.connect()
        _ = try await writer.call(API.Auth.login, AuthRouteTests.tokenLogin(poster.accessToken))
        _ = try await writer.call(API.Tweets.post, .init(text: "allowed"))
        #expect(try await writer.refusal(API.Timelines.home, .init()).code == -32003)
        #expect(
            try await alice.call(API.Tokens.list).map(\.scopes).sorted { ($0 ?? "") < ($1 ?? "") } == [
                "read", "write:statuses",
            ])
        #expect(try await alice.call(API.Tokens.list).allSatisfy { $0.appId == app.id && $0.name == "toot" })
    }

    @Test func aWrongSecretAScopeBeyondTheAppAndAWrongPasswordAreRefused() async throws {
        let daemon = try await InProcessDaemon()
        _ = try await daemon.signUp("alice")
        let client = daemon.connect()
        let app = try await Self.register(client, scopes: "read")
        let secret = try await client.refusal(API.OAuth.token, Self.passwordGrant(app, scope: "read", secret: "twk_no"))
        #expect(secret.code == -32002 && Self.oauthError(secret) == "invalid_client")
        let beyond = try await client.refusal(API.OAuth.token, Self.passwordGrant(app, scope: "read write"))
        #expect(beyond.code == -32602 && Self.oauthError(beyond) == "invalid_scope")
        let wrong = try await client.refusal(
            API.OAuth.token, Self.passwordGrant(app, password: "not the password", scope: "read"))
        #expect(wrong.code == -32002 && Self.oauthError(wrong) == "invalid_grant")
        var grant = Self.passwordGrant(app, scope: "read")
        grant.grantType = "implicit"
        #expect(Self.oauthError(try await client.refusal(API.OAuth.token, grant)) == "unsupported_grant_type")
        #expect(try await client.refusal(API.OAuth.register, .init(name: " ", redirectUris: [])).code == -32602)
    }

    @Test func thePasswordGrantIsThrottledAsLoginsAre() async throws {
        let daemon = try await InProcessDaemon()
        _ = try await daemon.signUp("alice")
        let client = daemon.connect()
        let app = try await Self.register(client)
        var codes: [Int] = []
        for _ in 0..<7 {
            codes.append(try await client.refusal(API.OAuth.token, Self.passwordGrant(app, password: "guess")).code)
        }
        #expect(codes.prefix(5).allSatisfy { $0 == -32002 })
        #expect(codes.last == -32006, "past five failures the account's login from this uid waits: \(codes)")
        let right = try await client.refusal(API.OAuth.token, Self.passwordGrant(app))
        #expect(right.code == -32006, "even the right password waits its turn")
        // Another uid's count is its own (the per-(account, uid) rule).
        _ = try await daemon.connect(uid: 1001).call(API.OAuth.token, Self.passwordGrant(app))
    }

    @Test func appsAreRegisteredAHundredAnHourPerLocalUser() async throws {
        let daemon = try await InProcessDaemon()
        let client = daemon.connect(uid: 1000)
        for _ in 0..<100 { _ = try await Self.register(client, scopes: "read") }
        let refused = try await client.refusal(
            API.OAuth.register, .init(name: "one more", redirectUris: [Self.outOfBand]))
        #expect(refused.code == -32006 && refused.message.hasPrefix("Too many app registrations"))
        _ = try await Self.register(daemon.connect(uid: 1001), scopes: "read")
    }

    @Test func revokeEndsTheTokenAndItsLoginsButOnlyForItsApp() async throws {
        let daemon = try await InProcessDaemon()
        _ = try await daemon.signUp("alice")
        let client = daemon.connect()
        let app = try await Self.register(client)
        let other = try await Self.register(client)
        let granted = try await client.call(API.OAuth.token, Self.passwordGrant(app))
        let login = daemon.connect()
        _ = try await login.call(API.Auth.login, AuthRouteTests.tokenLogin(granted.accessToken))
        _ = try await login.call(API.Timelines.subscribe, .init(timeline: "home"))
        let wrong = try await client.refusal(
            API.OAuth.revoke, .init(clientId: app.clientId, clientSecret: "twk_no", token: granted.accessToken))
        #expect(Self.oauthError(wrong) == "invalid_client")
        let byOther = try await client.call(
            API.OAuth.revoke,
            .init(clientId: other.clientId, clientSecret: other.clientSecret ?? "", token: granted.accessToken))
        #expect(!byOther.revoked, "another app's token is not its to revoke")
        #expect(try await login.call(API.Auth.whoami).user.username == "alice")
        let revoked = try await client.call(
            API.OAuth.revoke,
            .init(clientId: app.clientId, clientSecret: app.clientSecret ?? "", token: granted.accessToken))
        #expect(revoked.revoked)
        #expect(try await login.refusal(API.Auth.whoami).code == -32001)
        #expect(await login.inbox.next()?["method"] == .string("auth.revoked"))
        let again = try await daemon.connect().refusal(API.Auth.login, AuthRouteTests.tokenLogin(granted.accessToken))
        #expect(again.code == -32002)
    }

    @Test func aCodeIsTheAppsOnceForItsRedirectURI() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let client = daemon.connect()
        let app = try await Self.register(client)
        let other = try await Self.register(client)
        let authorization = try await alice.call(
            API.OAuth.authorize, .init(clientId: app.clientId, scope: "read write"))
        #expect(authorization.redirectUri == Self.outOfBand && authorization.scope == "read write")
        #expect(authorization.app == "toot")
        func redeem(_ app: API.OAuth.App, _ code: String, redirect: String? = OAuthRouteTests.outOfBand)
            -> API.OAuth.TokenParams
        {
            .init(
                grantType: "authorization_code", clientId: app.clientId, clientSecret: app.clientSecret ?? "",
                code: code, redirectUri: redirect)
        }
        let stolen = try await client.refusal(API.OAuth.token, redeem(other, authorization.code))
        #expect(Self.oauthError(stolen) == "invalid_grant", "another app's code")
        let fresh = try await alice.call(API.OAuth.authorize, .init(clientId: app.clientId, scope: "read write"))
        let elsewhere = try await client.refusal(API.OAuth.token, redeem(app, fresh.code, redirect: "https://evil"))
        #expect(Self.oauthError(elsewhere) == "invalid_grant", "another redirect URI")
        let good = try await alice.call(API.OAuth.authorize, .init(clientId: app.clientId, scope: "read write"))
        let granted = try await client.call(API.OAuth.token, redeem(app, good.code))
        #expect(granted.scope == "read write")
        let used = try await client.refusal(API.OAuth.token, redeem(app, good.code))
        #expect(Self.oauthError(used) == "invalid_grant", "a code is used once")
        let login = daemon.connect()
        _ = try await login.call(API.Auth.login, AuthRouteTests.tokenLogin(granted.accessToken))
        #expect(try await login.call(API.Auth.whoami).user.username == "alice")
        let beyond = try await alice.refusal(
            API.OAuth.authorize,
            .init(clientId: (try await Self.register(client, scopes: "read")).clientId, scope: "write"))
        #expect(Self.oauthError(beyond) == "invalid_scope")
        #expect(try await daemon.connect().refusal(API.OAuth.authorize, .init(clientId: app.clientId)).code == -32001)
    }

    @Test func anAppTokenVerifiesItsAppAndLogsNoOneIn() async throws {
        let daemon = try await InProcessDaemon()
        let client = daemon.connect()
        let app = try await Self.register(client)
        let granted = try await client.call(
            API.OAuth.token,
            .init(
                grantType: "client_credentials", clientId: app.clientId, clientSecret: app.clientSecret ?? "",
                scope: "read"))
        #expect(granted.scope == "read")
        #expect(try await client.call(API.OAuth.verify, .init(token: granted.accessToken)).clientId == app.clientId)
        #expect(try await client.refusal(API.Auth.login, AuthRouteTests.tokenLogin(granted.accessToken)).code == -32002)
        _ = try await client.call(
            API.OAuth.revoke,
            .init(clientId: app.clientId, clientSecret: app.clientSecret ?? "", token: granted.accessToken))
        #expect(try await client.refusal(API.OAuth.verify, .init(token: granted.accessToken)).code == -32002)
    }
}
