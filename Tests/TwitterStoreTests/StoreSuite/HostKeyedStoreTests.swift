import Foundation
import Testing
import TwitterCore

/// A uid is a person on its own host only, and daemons of several hosts may share one database: everything a uid
/// names is keyed by (host, uid). Before, peer links and signup buckets were keyed by the bare uid, so uid 1000
/// of host B logged in as the account uid 1000 of host A had linked, and took from its signup bucket.
struct HostKeyedStoreTests {
    @Test(arguments: StoreBackend.all) func aUidsLinksSessionsAndSignupBucketsAreItsHostsAlone(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let alice = try await fixture.user("alice")
        let (a, b) = (fixture.onHost("host-a"), fixture.onHost("host-b"))
        try await a.peerLinks.linkPeer(uid: 1000, userID: alice.id, at: Date())
        #expect(try await a.peerLinks.linkedUser(uid: 1000)?.id == alice.id)
        #expect(try await b.peerLinks.linkedUser(uid: 1000) == nil, "uid 1000 of host B is someone else")
        #expect(try await b.peerLinks.links().isEmpty)
        #expect(try await !b.peerLinks.unlinkPeer(uid: 1000, userID: alice.id), "B's uid 1000 has no link to end")
        #expect(try await a.peerLinks.links(userID: alice.id).map(\.host) == ["host-a"], "listed with its host")

        // A session host A's link minted ends when A's uid is unlinked, not B's.
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let minted = try await a.tokens.insertToken(
            userID: alice.id, kind: .session, name: "peer", hash: TokenStoreTests.hash(21), createdAt: now,
            expiresAt: nil, mintedByPeer: 1000)
        #expect(try await b.tokens.revokeSessions(userID: alice.id, mintedByPeer: 1000, at: now).isEmpty)
        #expect(try await a.tokens.revokeSessions(userID: alice.id, mintedByPeer: 1000, at: now) == [minted.id])

        let empty = TokenBucket(tokens: 0, updatedAt: now)
        try await a.rateBuckets.saveSignupBuckets([(uid: 1000, bucket: empty)])
        #expect(try await a.rateBuckets.allSignupBuckets().map(\.uid) == [1000])
        #expect(try await b.rateBuckets.allSignupBuckets().isEmpty, "B's uid 1000 has a bucket of its own")
        try await b.rateBuckets.saveSignupBuckets([(uid: 1000, bucket: TokenBucket(tokens: 5, updatedAt: now))])
        #expect(try await a.rateBuckets.allSignupBuckets().map(\.bucket.tokens) == [0], "A's stays")
    }

    /// The rows made before hosts were kept have host "": the first daemon to start claims them for its host, and a
    /// second finds none left.
    @Test(arguments: StoreBackend.all) func rowsOfNoHostGoToTheFirstHostToClaimThem(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let alice = try await fixture.user("alice")
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        // Written as before: the fixture's own stores are of host "".
        try await fixture.peerLinks.linkPeer(uid: 2000, userID: alice.id, at: now)
        try await fixture.rateBuckets.saveSignupBuckets([(uid: 2000, bucket: TokenBucket(tokens: 1, updatedAt: now))])
        let old = LoginThrottle(store: fixture.throttle, now: { now })
        let oldKeys = LoginThrottle.keys(
            account: "alice@example.com", peer: PeerCredentials(userID: 2000, groupID: 2000, processID: 1))
        try await old.recordFailure(oldKeys)
        #expect(oldKeys[0].storageName == "uid:2000", "the key a uid had before hosts were kept")

        try await fixture.claim("host-a")
        try await fixture.claim("host-b")
        let (a, b) = (fixture.onHost("host-a"), fixture.onHost("host-b"))
        #expect(try await a.peerLinks.linkedUser(uid: 2000)?.id == alice.id)
        #expect(try await b.peerLinks.linkedUser(uid: 2000) == nil)
        #expect(try await fixture.peerLinks.linkedUser(uid: 2000) == nil, "no row of no host is left")
        #expect(try await a.rateBuckets.allSignupBuckets().map(\.uid) == [2000])
        #expect(try await b.rateBuckets.allSignupBuckets().isEmpty)
        let claimed = LoginThrottle.keys(
            account: "alice@example.com", peer: PeerCredentials(userID: 2000, groupID: 2000, processID: 1),
            host: "host-a")
        for key in claimed where key.scope != .account {
            #expect(try await fixture.throttle.throttleState(for: key.storageName)?.failures == 1, "\(key)")
        }
        #expect(try await fixture.throttle.throttleState(for: "uid:2000") == nil)
    }
}
