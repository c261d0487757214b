import Foundation
import Sodium
import Synchronization
import Testing
import TokenLogin
import TwitterCore
import TwitterSQL
import TwitterSQLite

/// Tokens: format and checksum, hashing at rest, expiry, revocation, sliding sessions.
struct TokenLoginTests {
    /// A real token store that also counts lookups, to prove a bad checksum never reaches the database.
    final class CountingStore: TokenStoring {
        let inner: TokenStore
        let lookups = Atomic<Int>(0)
        init(_ inner: TokenStore) { self.inner = inner }
        func insertToken(
            userID: Int64, kind: TokenKind, name: String, hash: [UInt8], createdAt: Date, expiresAt: Date?,
            mintedByPeer: UInt32?
        ) async throws -> TokenRecord {
            try await inner.insertToken(
                userID: userID, kind: kind, name: name, hash: hash, createdAt: createdAt, expiresAt: expiresAt,
                mintedByPeer: mintedByPeer)
        }
        func token(hash: [UInt8]) async throws -> TokenRecord? {
            lookups.add(1, ordering: .relaxed)
            return try await inner.token(hash: hash)
        }
        func touchToken(id: Int64, usedAt: Date, expiresAt: Date?) async throws {
            try await inner.touchToken(id: id, usedAt: usedAt, expiresAt: expiresAt)
        }
        func revokeToken(id: Int64, userID: Int64, reason: Revocation.Reason, at date: Date) async throws -> Bool {
            try await inner.revokeToken(id: id, userID: userID, reason: reason, at: date)
        }
        func endCredentials(
            of userID: Int64, keeping: Int64?, everything: Bool, reason: Revocation.Reason, at date: Date
        ) async throws -> [Revocation] {
            try await inner.endCredentials(
                of: userID, keeping: keeping, everything: everything, reason: reason, at: date)
        }
        func revokeSessions(userID: Int64, mintedByPeer uid: UInt32, at date: Date) async throws -> [Int64] {
            try await inner.revokeSessions(userID: userID, mintedByPeer: uid, at: date)
        }
        func tokens(userID: Int64, kind: TokenKind) async throws -> [TokenRecord] {
            try await inner.tokens(userID: userID, kind: kind)
        }
    }

    final class Clock: Sendable {
        let seconds = Atomic<Int>(1_800_000_000)
        var now: Date { Date(timeIntervalSince1970: TimeInterval(seconds.load(ordering: .relaxed))) }
        func advance(days: Int) { seconds.add(days * 86_400, ordering: .relaxed) }
    }

    struct Fixture {
        let clock = Clock()
        let store: CountingStore
        let users: UserStore
        let service: SessionService
        let provider: TokenLoginProvider
        let user: User
        let context = LoginContext(peer: PeerCredentials(userID: 1, groupID: 1, processID: 1))

        init() async throws {
            let database = try AppDatabase.inMemory()
            users = UserStore(database: database)
            store = CountingStore(TokenStore(database: database))
            let clock = self.clock
            service = SessionService(
                store: store, sealer: TokenSealer(key: Sodium.shared.randomBytes(count: 32)), sessionDays: 30,
                now: { clock.now }
            )
            provider = TokenLoginProvider(service: service, users: users)
            user = try await users.createUser(email: "t@example.com", username: "t", passwordHash: nil)
        }

        func logIn(_ token: String) async throws -> Authentication {
            try await provider.logIn(with: .init(token: token), context: context)
        }
    }

    @Test func tokensCarryTheirKindAndAChecksum() {
        let session = TokenCodec.makeToken(kind: .session)
        let personal = TokenCodec.makeToken(kind: .personal)
        #expect(session.hasPrefix("tws_"))
        #expect(personal.hasPrefix("twp_"))
        #expect(TokenCodec.kind(of: session) == .session)
        #expect(TokenCodec.kind(of: personal) == .personal)
        #expect(session != TokenCodec.makeToken(kind: .session))
    }

    @Test func mistypedTokenIsRejectedWithoutADatabaseLookup() async throws {
        let fixture = try await Fixture()
        let issued = try await fixture.service.issueSession(userID: fixture.user.id, provider: "password")
        var characters = Array(issued.token)
        let index = characters.count - 5
        characters[index] = characters[index] == "a" ? "b" : "a"
        let mistyped = String(characters)
        let truncated = String(issued.token.dropLast())
        for bad in [mistyped, truncated, "tws_", "twp_" + issued.token.dropFirst(4), "hello"] {
            #expect(TokenCodec.kind(of: bad) == nil, "\(bad)")
            await #expect(throws: TwitterError.self) { _ = try await fixture.logIn(bad) }
        }
        #expect(fixture.store.lookups.load(ordering: .relaxed) == 0)
        _ = try await fixture.logIn(issued.token)
        #expect(fixture.store.lookups.load(ordering: .relaxed) == 1)
    }

    @Test func sessionResumesAndSlidesUntilItExpires() async throws {
        let fixture = try await Fixture()
        let issued = try await fixture.service.issueSession(userID: fixture.user.id, provider: "password")
        fixture.clock.advance(days: 20)
        let resumed = try await fixture.logIn(issued.token)
        #expect(resumed.user.id == fixture.user.id)
        #expect(resumed.resumedSession?.id == issued.id)
        // Used on day 20, it now lasts until day 50.
        fixture.clock.advance(days: 29)
        _ = try await fixture.logIn(issued.token)
        fixture.clock.advance(days: 31)
        await #expect(throws: TwitterError.self) { _ = try await fixture.logIn(issued.token) }
    }

    @Test func expiredAndRevokedPersonalTokensAreRejected() async throws {
        let fixture = try await Fixture()
        let (_, expiring) = try await fixture.service.createPersonalToken(
            userID: fixture.user.id, name: "a", expiresInDays: 1)
        let (record, revoked) = try await fixture.service.createPersonalToken(
            userID: fixture.user.id, name: "b", expiresInDays: nil)
        _ = try await fixture.logIn(expiring)
        _ = try await fixture.logIn(revoked)
        #expect(try await fixture.service.revokeToken(id: record.id, userID: fixture.user.id))
        await #expect(throws: TwitterError.self) { _ = try await fixture.logIn(revoked) }
        fixture.clock.advance(days: 2)
        await #expect(throws: TwitterError.self) { _ = try await fixture.logIn(expiring) }
        #expect(try await fixture.service.personalTokens(userID: fixture.user.id).map(\.name) == ["a"])
    }

    @Test func revokingAnotherUsersTokenDoesNothing() async throws {
        let fixture = try await Fixture()
        let (record, token) = try await fixture.service.createPersonalToken(
            userID: fixture.user.id, name: "a", expiresInDays: nil)
        #expect(try await fixture.service.revokeToken(id: record.id, userID: fixture.user.id + 1) == false)
        _ = try await fixture.logIn(token)
    }
}
