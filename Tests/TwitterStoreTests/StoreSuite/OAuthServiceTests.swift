import Foundation
import Synchronization
import Testing
import TwitterCore

/// `OAuthService` over each backend's stores, with a clock it moves: what only time shows (a code's expiry).
struct OAuthServiceTests {
    /// Seals a token as its UTF-8 bytes: the keyed hash is the token plugin's, tested with it; here only the
    /// service's rules are.
    struct PlainSealer: TokenSealing {
        func makeToken(kind: TokenKind) -> String { "twp_" + UUID().uuidString.lowercased() }
        func kind(of token: String) -> TokenKind? { token.hasPrefix("twp_") ? .personal : nil }
        func seal(_ token: String) -> [UInt8] { Array(token.utf8) }
    }

    final class Clock: Sendable {
        let now = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(_ seconds: TimeInterval) { now.withLock { $0.addTimeInterval(seconds) } }
    }

    @Test(arguments: StoreBackend.all) func anAppNameWithAControlCharacterIsRefused(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let service = OAuthService(store: fixture.stores.oauth, tokens: fixture.tokens, sealer: PlainSealer())
        await #expect(throws: TwitterError.self, "an escape sequence for the account's terminal") {
            _ = try await service.registerApp(
                name: "toot\u{1B}]0;owned\u{07}", redirectURIs: [OAuthService.outOfBand], scopes: "read",
                website: nil)
        }
        _ = try await service.registerApp(
            name: "Tusky ✓", redirectURIs: [OAuthService.outOfBand], scopes: "read", website: nil)
    }

    @Test(arguments: StoreBackend.all) func aCodeExpiresAfterTenMinutes(_ backend: StoreBackend) async throws {
        let fixture = try await backend.fixture()
        let clock = Clock()
        let service = OAuthService(
            store: fixture.stores.oauth, tokens: fixture.tokens, sealer: PlainSealer(),
            now: { clock.now.withLock { $0 } })
        let alice = try await fixture.user("alice")
        let (app, secret) = try await service.registerApp(
            name: "toot", redirectURIs: [OAuthService.outOfBand], scopes: "read write", website: nil)
        #expect(try await service.authenticate(clientID: app.clientID, secret: secret).id == app.id)
        await #expect(throws: OAuthError.invalidClient) {
            _ = try await service.authenticate(clientID: app.clientID, secret: secret + "x")
        }
        let scopes = try service.scopes(requested: "read", of: app)
        let late = try await service.authorize(userID: alice.id, app: app, scopes: scopes, redirectURI: nil)
        let timely = try await service.authorize(userID: alice.id, app: app, scopes: scopes, redirectURI: nil)
        clock.advance(599)
        #expect(try await service.redeem(code: timely.code, app: app, redirectURI: nil).userID == alice.id)
        clock.advance(2)
        await #expect(throws: TwitterError.self, "expired") {
            _ = try await service.redeem(code: late.code, app: app, redirectURI: OAuthService.outOfBand)
        }
        await #expect(throws: OAuthError.invalidRedirectURI) {
            _ = try await service.authorize(userID: alice.id, app: app, scopes: scopes, redirectURI: "https://evil")
        }
        #expect(throws: OAuthError.invalidScope) { try service.scopes(requested: "follow", of: app) }
        #expect(try service.scopes(requested: nil, of: app).text == "read", "Mastodon's default")
    }
}
