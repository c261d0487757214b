import Foundation
import Testing
import TwitterCore

/// The writes that revoke what live connections rest on, each one ordered write with the entry that tells the
/// other daemons (which `RevocationBroadcastTests` reads on a second PostgreSQL store): what each ends, on both
/// stores, and the revocations `endCredentials` returns for this daemon's own connections.
struct RevocationStoreTests {
    @Test(arguments: StoreBackend.all) func aTokenRevocationIsCommittedWithItsEntryOnce(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let alice = try await fixture.user("alice")
        let now = Date()
        let token = try await fixture.tokens.insertToken(
            userID: alice.id, kind: .personal, name: "script", hash: TokenStoreTests.hash(1), createdAt: now,
            expiresAt: nil)
        #expect(try await fixture.tokens.revokeToken(id: token.id, userID: alice.id, reason: .tokenRevoked, at: now))
        #expect(try await fixture.tokens.token(hash: TokenStoreTests.hash(1))?.revokedAt != nil)
        #expect(
            try await !fixture.tokens.revokeToken(id: token.id, userID: alice.id, reason: .tokenRevoked, at: now),
            "once")
    }

    @Test(arguments: StoreBackend.all) func endingCredentialsEndsWhatItSaysAndTellsEachRevocation(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let now = Date()
        func token(_ user: User, _ kind: TokenKind, _ byte: UInt8) async throws -> TokenRecord {
            try await fixture.tokens.insertToken(
                userID: user.id, kind: kind, name: "t", hash: TokenStoreTests.hash(byte), createdAt: now,
                expiresAt: nil)
        }
        let kept = try await token(alice, .session, 1)
        _ = try await token(alice, .session, 2)
        let script = try await token(alice, .personal, 3)
        let bobs = try await token(bob, .session, 4)
        try await fixture.peerLinks.linkPeer(uid: 1001, userID: alice.id, at: now)
        try await fixture.peerLinks.linkPeer(uid: 1002, userID: bob.id, at: now)

        // A password change: the other sessions and every link; the caller's session and the script stay.
        let changed = try await fixture.tokens.endCredentials(
            of: alice.id, keeping: kept.id, everything: false, reason: .passwordChanged, at: now)
        let expected: [Revocation] = [
            .otherSessions(userID: alice.id, keeping: kept.id), .peerLink(uid: 1001, userID: alice.id),
        ]
        #expect(changed == expected)
        #expect(try await fixture.tokens.tokens(userID: alice.id, kind: .session).map(\.id) == [kept.id])
        #expect(try await fixture.tokens.tokens(userID: alice.id, kind: .personal).map(\.id) == [script.id])
        #expect(try await fixture.peerLinks.links(userID: alice.id).isEmpty)

        // A reset: everything, the personal tokens too; another account's session and link stay.
        let reset = try await fixture.tokens.endCredentials(
            of: alice.id, keeping: nil, everything: true, reason: .passwordReset, at: now)
        #expect(reset == [.account(userID: alice.id, reason: .passwordReset)])
        #expect(try await fixture.tokens.tokens(userID: alice.id, kind: .session).isEmpty)
        #expect(try await fixture.tokens.tokens(userID: alice.id, kind: .personal).isEmpty)
        #expect(try await fixture.tokens.tokens(userID: bob.id, kind: .session).map(\.id) == [bobs.id])
        #expect(try await fixture.peerLinks.linkedUser(uid: 1002)?.id == bob.id)
    }
}
