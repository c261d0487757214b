import Foundation
import Testing
import TwitterCore

/// Write rate buckets, saved across restarts.
struct RateBucketStoreTests {
    typealias Entry = (userID: Int64, action: RateLimitedAction, bucket: TokenBucket)

    /// Entries as comparable text, in a fixed order.
    static func sorted(_ entries: [Entry]) -> [String] {
        entries.map {
            "\($0.userID) \($0.action.rawValue) \($0.bucket.tokens) \($0.bucket.updatedAt.timeIntervalSince1970)"
        }
        .sorted()
    }

    @Test(arguments: StoreBackend.all) func bucketsRoundTripTheLastOfTwinsWinsAndAnUnknownAccountIsSkipped(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let moment = Date(timeIntervalSince1970: 1_700_000_000.25)
        try await fixture.rateBuckets.save([])
        #expect(try await fixture.rateBuckets.allBuckets().isEmpty)
        let saved: [Entry] = [
            (alice.id, .follows, TokenBucket(tokens: 7.5, updatedAt: moment)),
            (bob.id, .reports, TokenBucket(tokens: 0.125, updatedAt: moment.addingTimeInterval(-1))),
            (alice.id, .follows, TokenBucket(tokens: 2, updatedAt: moment.addingTimeInterval(1))),
            (424_242, .posts, TokenBucket(tokens: 1, updatedAt: moment)),
        ]
        try await fixture.rateBuckets.save(saved)
        #expect(Self.sorted(try await fixture.rateBuckets.allBuckets()) == Self.sorted([saved[1], saved[2]]))
        let replaced: [Entry] = [(bob.id, .reports, TokenBucket(tokens: 3, updatedAt: moment.addingTimeInterval(5)))]
        try await fixture.rateBuckets.save(replaced)
        #expect(Self.sorted(try await fixture.rateBuckets.allBuckets()) == Self.sorted([saved[2]] + replaced))
    }

    @Test(arguments: StoreBackend.all) func signupBucketsRoundTripByUIDWithoutAnAccount(_ backend: StoreBackend)
        async throws
    {
        let fixture = try await backend.fixture()
        let moment = Date(timeIntervalSince1970: 1_700_000_000.25)
        try await fixture.rateBuckets.saveSignupBuckets([])
        #expect(try await fixture.rateBuckets.allSignupBuckets().isEmpty)
        // uids, not accounts: 65534 has no account, and the largest uid fits.
        try await fixture.rateBuckets.saveSignupBuckets([
            (uid: 65534, bucket: TokenBucket(tokens: 4.5, updatedAt: moment)),
            (uid: UInt32.max - 1, bucket: TokenBucket(tokens: 0, updatedAt: moment)),
            (uid: 65534, bucket: TokenBucket(tokens: 3.5, updatedAt: moment.addingTimeInterval(1))),
        ])
        try await fixture.rateBuckets.saveSignupBuckets([
            (uid: UInt32.max - 1, bucket: TokenBucket(tokens: 1, updatedAt: moment.addingTimeInterval(2)))
        ])
        let stored = try await fixture.rateBuckets.allSignupBuckets().sorted { $0.uid < $1.uid }
        #expect(stored.map(\.uid) == [65534, UInt32.max - 1])
        #expect(stored.map(\.bucket.tokens) == [3.5, 1], "the last of twins wins; a later save replaces")
        #expect(stored.map(\.bucket.updatedAt) == [moment.addingTimeInterval(1), moment.addingTimeInterval(2)])
    }
}
