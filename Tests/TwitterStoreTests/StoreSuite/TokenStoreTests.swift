import Foundation
import Testing
import TwitterCore

/// Tokens found by their hash, and uids linked to accounts.
struct TokenStoreTests {
    /// Timestamps are stored to the millisecond.
    static func milliseconds(_ date: Date?) -> Int64? {
        date.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
    }

    /// A 32-byte hash made of `byte`, with a zero byte in it, as keyed hashes have.
    static func hash(_ byte: UInt8) -> [UInt8] {
        [byte, 0] + [UInt8](repeating: byte, count: 30)
    }

    @Test(arguments: StoreBackend.all) func tokensAreFoundByHashTouchedListedAndRevoked(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let tokens = fixture.tokens
        let now = Date(timeIntervalSince1970: 1_700_000_000.123_456)
        let first = try await tokens.insertToken(
            userID: alice.id, kind: .session, name: "password", hash: Self.hash(1), createdAt: now,
            expiresAt: now.addingTimeInterval(3600))
        let second = try await tokens.insertToken(
            userID: alice.id, kind: .session, name: "peer", hash: Self.hash(2), createdAt: now, expiresAt: nil)
        let personal = try await tokens.insertToken(
            userID: alice.id, kind: .personal, name: "script", hash: Self.hash(3), createdAt: now, expiresAt: nil)
        let bobs = try await tokens.insertToken(
            userID: bob.id, kind: .session, name: "password", hash: Self.hash(4), createdAt: now, expiresAt: nil)
        await #expect(throws: (any Error).self, "a hash is one token's") {
            _ = try await tokens.insertToken(
                userID: bob.id, kind: .personal, name: "again", hash: Self.hash(4), createdAt: now, expiresAt: nil)
        }

        let found = try #require(try await tokens.token(hash: Self.hash(1)))
        #expect(found.id == first.id)
        #expect(found.userID == alice.id && found.kind == .session && found.name == "password")
        #expect(Self.milliseconds(found.createdAt) == 1_700_000_000_123)
        #expect(Self.milliseconds(found.expiresAt) == 1_700_003_600_123)
        #expect(found.lastUsedAt == nil && found.revokedAt == nil)
        #expect(try await tokens.token(hash: Array(Self.hash(1).dropLast()) + [9]) == nil)

        let later = now.addingTimeInterval(60)
        try await tokens.touchToken(id: first.id, usedAt: later, expiresAt: later.addingTimeInterval(3600))
        try await tokens.touchToken(id: personal.id, usedAt: later, expiresAt: nil)
        let touched = try #require(try await tokens.token(hash: Self.hash(1)))
        #expect(Self.milliseconds(touched.lastUsedAt) == Self.milliseconds(later))
        #expect(Self.milliseconds(touched.expiresAt) == Self.milliseconds(later.addingTimeInterval(3600)))
        let script = try #require(try await tokens.token(hash: Self.hash(3)))
        #expect(script.expiresAt == nil, "a touch without an expiry keeps it")
        #expect(Self.milliseconds(script.lastUsedAt) == Self.milliseconds(later))

        #expect(try await tokens.tokens(userID: alice.id, kind: .session).map(\.id) == [second.id, first.id])
        #expect(try await tokens.tokens(userID: alice.id, kind: .personal).map(\.id) == [personal.id])
        #expect(
            try await !tokens.revokeToken(id: first.id, userID: bob.id, reason: .tokenRevoked, at: later),
            "only its owner's")
        #expect(try await tokens.revokeToken(id: first.id, userID: alice.id, reason: .tokenRevoked, at: later))
        #expect(try await !tokens.revokeToken(id: first.id, userID: alice.id, reason: .tokenRevoked, at: later), "once")
        #expect(Self.milliseconds(try await tokens.token(hash: Self.hash(1))?.revokedAt) == Self.milliseconds(later))
        #expect(try await tokens.tokens(userID: alice.id, kind: .session).map(\.id) == [second.id])

        let third = try await tokens.insertToken(
            userID: alice.id, kind: .session, name: "password", hash: Self.hash(5), createdAt: later, expiresAt: nil)
        _ = try await tokens.endCredentials(
            of: alice.id, keeping: third.id, everything: false, reason: .passwordChanged, at: later)
        #expect(try await tokens.tokens(userID: alice.id, kind: .session).map(\.id) == [third.id])
        #expect(try await tokens.tokens(userID: alice.id, kind: .personal).map(\.id) == [personal.id])
        #expect(try await tokens.tokens(userID: bob.id, kind: .session).map(\.id) == [bobs.id], "only hers")
        _ = try await tokens.endCredentials(
            of: alice.id, keeping: nil, everything: false, reason: .passwordChanged, at: later)
        #expect(try await tokens.tokens(userID: alice.id, kind: .session).isEmpty)
    }

    @Test(arguments: StoreBackend.all) func aUidLinksToOneAccountAndOnlyThatAccountUnlinksIt(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let links = fixture.peerLinks
        #expect(try await links.linkedUser(uid: 1000) == nil)
        try await links.linkPeer(uid: 1000, userID: alice.id, at: Date())
        try await links.linkPeer(uid: 4_000_000_000, userID: alice.id, at: Date())
        #expect(try await links.linkedUser(uid: 1000)?.id == alice.id)
        try await links.linkPeer(uid: 1000, userID: bob.id, at: Date())
        #expect(try await links.linkedUser(uid: 1000)?.id == bob.id, "linking again moves the link")
        #expect(try await !links.unlinkPeer(uid: 1000, userID: alice.id), "not hers any more")
        let all = try await links.links().map { "\($0.uid) \($0.userID)" }.sorted()
        #expect(all == ["1000 \(bob.id)", "4000000000 \(alice.id)"])
        #expect(try await links.unlinkPeer(uid: 1000, userID: bob.id))
        #expect(try await !links.unlinkPeer(uid: 1000, userID: bob.id))
        #expect(try await links.linkedUser(uid: 1000) == nil)
        #expect(try await links.links().map(\.uid) == [4_000_000_000])
    }

    /// The owner sees every link with when it was made, and a password change or reset takes them all at once.
    @Test(arguments: StoreBackend.all) func anAccountsLinksAreListedWithTheirTimeAndEndTogether(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let links = fixture.peerLinks
        let moment = Date(timeIntervalSince1970: 1_800_000_000)
        try await links.linkPeer(uid: 1001, userID: alice.id, at: moment)
        try await links.linkPeer(uid: 65534, userID: alice.id, at: moment.addingTimeInterval(60))
        try await links.linkPeer(uid: 1002, userID: bob.id, at: moment)
        #expect(
            try await links.links(userID: alice.id)
                == [
                    PeerLink(uid: 1001, userID: alice.id, linkedAt: moment),
                    PeerLink(uid: 65534, userID: alice.id, linkedAt: moment.addingTimeInterval(60)),
                ])
        // A password change or a reset ends them all, with the tokens (`TokenStoring.endCredentials`).
        let unlinked = { () async throws -> [Revocation] in
            try await fixture.tokens.endCredentials(
                of: alice.id, keeping: nil, everything: false, reason: .passwordChanged, at: moment
            ).filter { if case .peerLink = $0 { true } else { false } }
        }
        #expect(
            try await unlinked() == [.peerLink(uid: 1001, userID: alice.id), .peerLink(uid: 65534, userID: alice.id)])
        #expect(try await links.links(userID: alice.id).isEmpty)
        #expect(try await links.linkedUser(uid: 65534) == nil)
        #expect(try await links.linkedUser(uid: 1002)?.id == bob.id, "another account's link stays")
        #expect(try await unlinked().isEmpty)
    }

    /// A role is stored with the account's id: it follows a rename, and the name, taken by someone else, carries
    /// nothing.
    @Test(arguments: StoreBackend.all) func aRoleBelongsToTheAccountNotToItsName(_ backend: StoreBackend) async throws {
        let fixture = try await backend.fixture()
        let boss = try await fixture.user("boss")
        let moderation = fixture.moderation
        #expect(try await moderation.role(of: boss.id) == .user)
        #expect(try await moderation.setRole(.admin, of: boss.id))
        #expect(try await !moderation.setRole(.admin, of: boss.id), "already an admin")
        _ = try await fixture.stores.profiles.updateProfile(
            userID: boss.id, patch: ProfilePatch(username: "boss2"), expectedVersion: nil)
        let newcomer = try await fixture.users.createUser(
            email: "newcomer@example.com", username: "boss", passwordHash: nil)
        #expect(try await moderation.role(of: boss.id) == .admin)
        #expect(try await moderation.role(of: newcomer.id) == .user)
        #expect(try await moderation.account(named: "boss2")?.role == .admin)
        #expect(try await moderation.account(named: "boss")?.role == .user)
        #expect(try await moderation.accounts(withRole: .admin) == [boss.id])
        #expect(try await moderation.setRole(.user, of: boss.id))
        #expect(try await moderation.accounts(withRole: .admin).isEmpty)
        #expect(try await !moderation.setRole(.admin, of: 999_999), "no such account")
    }

    /// Unlinking a uid once ended every peer session of the account, and a session did not know its link. A session
    /// a peer login minted remembers the link now: unlinking it ends exactly that link's sessions (and the peer
    /// sessions made before sessions remembered theirs), and says which, so their live connections can be cut off.
    @Test(arguments: StoreBackend.all) func unlinkingEndsTheSessionsThatLinkMintedOnly(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let tokens = fixture.tokens
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        func session(_ user: User, _ name: String, _ byte: UInt8, peer: UInt32?) async throws -> TokenRecord {
            try await tokens.insertToken(
                userID: user.id, kind: .session, name: name, hash: Self.hash(byte), createdAt: now,
                expiresAt: nil, mintedByPeer: peer)
        }
        let linked = try await session(alice, "peer", 11, peer: 65534)
        let again = try await session(alice, "peer", 12, peer: 65534)
        let otherLink = try await session(alice, "peer", 13, peer: 1000)
        let legacy = try await session(alice, "peer", 14, peer: nil)
        let password = try await session(alice, "password", 15, peer: nil)
        let bobs = try await session(bob, "peer", 16, peer: 65534)
        let ended = try await tokens.revokeSessions(userID: alice.id, mintedByPeer: 65534, at: now)
        #expect(ended.sorted() == [linked.id, again.id, legacy.id])
        let live = try await tokens.tokens(userID: alice.id, kind: .session).map(\.id).sorted()
        #expect(live == [otherLink.id, password.id])
        #expect(try await tokens.tokens(userID: bob.id, kind: .session).map(\.id) == [bobs.id], "another account's")
        #expect(try await tokens.revokeSessions(userID: alice.id, mintedByPeer: 65534, at: now).isEmpty)
    }
}
