import Foundation
import Logging
import TestSupport
import Testing
import TwitterCore
import TwitterPostgres

/// On a database several daemons share, a revocation and the commit-log entry that tells the others are one
/// transaction (issue #48): when the entry cannot be written, the revocation is not committed either, and the
/// call fails. Before, the entry was a second write: if it failed, the credential was revoked here and answered
/// as such while the other daemons went on serving it.
@Suite struct RevocationBroadcastTests {
    let quiet = Logger(label: "test.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func aRevocationWhoseEntryCannotBeWrittenIsNotCommitted() async throws {
        let url = try TestPostgres.freshDatabase()
        let store = try await PostgresStore.open(try PostgresLocation(url: url), poolSize: 4, logger: quiet)
        let stores = store.stores(observer: StreamingRecorder())
        let alice = try await stores.users.createUser(email: "alice@example.com", username: "alice", passwordHash: nil)
        let now = Date()
        let session = try await stores.tokens.insertToken(
            userID: alice.id, kind: .session, name: "password", hash: TokenStoreTests.hash(1), createdAt: now,
            expiresAt: nil)
        try await stores.peerLinks.linkPeer(uid: 1001, userID: alice.id, at: now)
        try TestPostgres.refuseRevocationEntries(in: url)

        await #expect(throws: (any Error).self) {
            _ = try await stores.tokens.revokeToken(id: session.id, userID: alice.id, reason: .loggedOut, at: now)
        }
        await #expect(throws: (any Error).self) {
            _ = try await stores.tokens.endCredentials(
                of: alice.id, keeping: nil, everything: true, reason: .passwordReset, at: now)
        }
        await #expect(throws: (any Error).self) {
            _ = try await stores.peerLinks.unlinkPeer(uid: 1001, userID: alice.id)
        }
        await #expect(throws: (any Error).self) {
            _ = try await stores.moderation.suspend(alice.id, reason: "x", at: now)
        }
        await #expect(throws: (any Error).self) { _ = try await stores.moderation.setRole(.admin, of: alice.id) }
        // Nothing was revoked: the session and the link still log in, on every daemon.
        #expect(try await stores.tokens.token(hash: TokenStoreTests.hash(1))?.revokedAt == nil)
        #expect(try await stores.peerLinks.linkedUser(uid: 1001)?.id == alice.id)
        #expect(try await stores.moderation.suspension(of: alice.id) == nil)
        #expect(try await stores.moderation.role(of: alice.id) == .user)

        // Once the log takes entries again, the same revocation commits with its entry.
        try TestPostgres.acceptRevocationEntries(in: url)
        #expect(try await stores.tokens.revokeToken(id: session.id, userID: alice.id, reason: .loggedOut, at: now))
        #expect(try await stores.tokens.token(hash: TokenStoreTests.hash(1))?.revokedAt != nil)
        await store.close()
    }

    /// Every write that revokes tells the other daemons with its own entry, in commit order: a second store on
    /// the database, as another daemon, hears each revocation.
    @Test func everyRevokingWriteTellsTheOtherDaemons() async throws {
        let url = try TestPostgres.freshDatabase()
        let first = try await PostgresStore.open(try PostgresLocation(url: url), poolSize: 4, logger: quiet)
        let second = try await PostgresStore.open(try PostgresLocation(url: url), poolSize: 4, logger: quiet)
        let a = first.stores(observer: StreamingRecorder())
        let heard = StreamingRecorder()
        _ = second.stores(observer: heard)
        let alice = try await a.users.createUser(email: "alice@example.com", username: "alice", passwordHash: nil)
        let bob = try await a.users.createUser(email: "bob@example.com", username: "bob", passwordHash: nil)
        let now = Date()
        let token = try await a.tokens.insertToken(
            userID: bob.id, kind: .personal, name: "script", hash: TokenStoreTests.hash(2), createdAt: now,
            expiresAt: nil)
        #expect(try await a.tokens.revokeToken(id: token.id, userID: bob.id, reason: .tokenRevoked, at: now))
        _ = try await a.tokens.endCredentials(
            of: bob.id, keeping: nil, everything: false, reason: .passwordChanged, at: now)
        _ = try await a.peerLinks.unlinkPeer(uid: 1003, userID: bob.id)
        #expect(try await a.moderation.suspend(alice.id, reason: "spam", at: now))
        #expect(try await a.moderation.setRole(.admin, of: bob.id))
        try await a.accounts.deleteAccount(bob.id, reservingNameUntil: now.addingTimeInterval(60))
        let expected: [Revocation] = [
            .token(id: token.id, userID: bob.id, reason: .tokenRevoked), .otherSessions(userID: bob.id, keeping: nil),
            .peerLink(uid: 1003, userID: bob.id), .account(userID: alice.id, reason: .suspended),
            .account(userID: bob.id, reason: .roleChanged), .account(userID: bob.id, reason: .accountDeleted),
        ]
        for revocation in expected {
            #expect(try await heard.first { $0 == .account(.revoked(revocation)) }, "\(revocation)")
        }
        await first.close()
        await second.close()
    }
}
