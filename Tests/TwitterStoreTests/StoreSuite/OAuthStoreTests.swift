import Foundation
import Testing
import TwitterCore

/// OAuth apps, codes and app tokens, and an account's access token as a token like the others: one suite, every
/// backend.
struct OAuthStoreTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000.25)

    static func app(_ store: any OAuthStoring, _ clientID: String, hash byte: UInt8) async throws -> OAuthApp {
        try await store.insertApp(
            clientID: clientID, secretHash: TokenStoreTests.hash(byte), name: "toot",
            redirectURIs: ["urn:ietf:wg:oauth:2.0:oob", "https://example.org/cb"],
            scopes: OAuthScopes(["read", "write", "follow"]), website: nil, createdAt: now)
    }

    @Test(arguments: StoreBackend.all) func appsAreFoundByClientIDWithTheirSecretsHash(_ backend: StoreBackend)
        async throws
    {
        let store = try await backend.fixture().stores.oauth
        let app = try await Self.app(store, "twc_one", hash: 7)
        await #expect(throws: (any Error).self, "a client id is one app's") {
            _ = try await Self.app(store, "twc_one", hash: 8)
        }
        let found = try #require(try await store.app(clientID: "twc_one"))
        #expect(found.app.id == app.id && found.app.clientID == "twc_one" && found.app.name == "toot")
        #expect(found.secretHash == TokenStoreTests.hash(7))
        #expect(TokenStoreTests.milliseconds(found.app.createdAt) == TokenStoreTests.milliseconds(Self.now))
        #expect(found.app.redirectURIs == ["urn:ietf:wg:oauth:2.0:oob", "https://example.org/cb"])
        #expect(found.app.scopes.text == "follow read write" && found.app.website == nil)
        #expect(try await store.app(id: app.id)?.clientID == "twc_one")
        #expect(try await store.app(clientID: "twc_other") == nil)
    }

    @Test(arguments: StoreBackend.all) func aCodeIsRedeemedOnceWithWhatItWasBoundTo(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let store = fixture.stores.oauth
        let alice = try await fixture.user("alice")
        let app = try await Self.app(store, "twc_code", hash: 1)
        try await store.insertCode(
            hash: TokenStoreTests.hash(2), appID: app.id, userID: alice.id, scopes: OAuthScopes(["read"]),
            redirectURI: "urn:ietf:wg:oauth:2.0:oob", createdAt: Self.now, expiresAt: Self.now.addingTimeInterval(600))
        #expect(try await store.redeemCode(hash: TokenStoreTests.hash(3), at: Self.now) == nil, "an unknown code")
        let code = try #require(try await store.redeemCode(hash: TokenStoreTests.hash(2), at: Self.now))
        #expect(code.appID == app.id && code.userID == alice.id && code.scopes.text == "read")
        #expect(code.redirectURI == "urn:ietf:wg:oauth:2.0:oob")
        #expect(
            TokenStoreTests.milliseconds(code.expiresAt) == TokenStoreTests.milliseconds(Self.now).map { $0 + 600_000 })
        #expect(try await store.redeemCode(hash: TokenStoreTests.hash(2), at: Self.now) == nil, "used once")
    }

    @Test(arguments: StoreBackend.all)
    func anAccessTokenIsAPersonalTokenWithItsAppAndScopesAndEndsAsTheyEnd(_ backend: StoreBackend) async throws {
        let fixture = try await backend.fixture()
        let store = fixture.stores.oauth
        let alice = try await fixture.user("alice")
        let app = try await Self.app(store, "twc_token", hash: 1)
        let granted = try await store.insertAccessToken(
            userID: alice.id, appID: app.id, name: app.name, scopes: OAuthScopes(["read", "write:statuses"]),
            hash: TokenStoreTests.hash(4), createdAt: Self.now)
        let found = try #require(try await fixture.tokens.token(hash: TokenStoreTests.hash(4)))
        #expect(found.id == granted.id && found.kind == .personal && found.userID == alice.id)
        #expect(found.appID == app.id && found.scopes?.text == "read write:statuses" && found.name == "toot")
        let listed = try await fixture.tokens.tokens(userID: alice.id, kind: .personal)
        #expect(listed.map(\.appID) == [app.id])
        let personal = try await fixture.tokens.insertToken(
            userID: alice.id, kind: .personal, name: "script", hash: TokenStoreTests.hash(5), createdAt: Self.now,
            expiresAt: nil)
        #expect(personal.appID == nil && personal.scopes == nil)
        #expect(try await fixture.tokens.token(hash: TokenStoreTests.hash(5))?.scopes == nil, "a personal token's")
        // A reset, a suspension, a deletion end every credential of the account: the app's token with the rest.
        _ = try await fixture.tokens.endCredentials(
            of: alice.id, keeping: nil, everything: true, reason: .passwordReset, at: Self.now)
        #expect(try await fixture.tokens.token(hash: TokenStoreTests.hash(4))?.revokedAt != nil)
        #expect(try await fixture.tokens.tokens(userID: alice.id, kind: .personal).isEmpty)
    }

    @Test(arguments: StoreBackend.all) func anAppTokenIsTheAppsAndIsRevokedOnce(_ backend: StoreBackend)
        async throws
    {
        let store = try await backend.fixture().stores.oauth
        let app = try await Self.app(store, "twc_app", hash: 1)
        let token = try await store.insertAppToken(
            appID: app.id, scopes: OAuthScopes(["read"]), hash: TokenStoreTests.hash(6), createdAt: Self.now)
        #expect(try await store.appToken(hash: TokenStoreTests.hash(6)) == token)
        #expect(try await store.appToken(hash: TokenStoreTests.hash(9)) == nil)
        #expect(try await store.revokeAppToken(id: token.id, at: Self.now))
        #expect(try await !store.revokeAppToken(id: token.id, at: Self.now), "once")
        #expect(try await store.appToken(hash: TokenStoreTests.hash(6))?.revokedAt != nil)
    }
}
