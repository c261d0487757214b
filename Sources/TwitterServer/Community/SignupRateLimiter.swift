import Foundation
import TwitterCore

/// The signup rate limit of every local user (`rates.signups`): one token bucket per uid, as the kernel reports
/// it (SO_PEERCRED), so one user cannot make accounts in bulk, each with fresh write limits. Root is never
/// limited: the administrator makes accounts for others.
///
/// Like `WriteRateLimiter`, the buckets live in memory, are read from the store at start (`load`) and written
/// back every few seconds and at shutdown (`RateBucketFlusher`), so a restart keeps them.
public final class SignupRateLimiter: RateBucketFlushing {
    private let limit: RateLimit?
    private let store: (any RateBucketStoring)?
    private let clock: @Sendable () -> Date
    private let buckets = TokenBuckets<UInt32>()
    /// What is counted, for the refusal: `signups`, or `app registrations` for the OAuth apps limited alike.
    private let counted: String

    /// Limits signups (or what `counted` names) to `limit` per uid (nil: no limit), keeping buckets in `store`
    /// (nil: in memory only); `clock` is replaced in tests.
    public init(
        limit: RateLimit?, store: (any RateBucketStoring)?, counted: String = "signups",
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.limit = limit
        self.store = store
        self.counted = counted
        self.clock = clock
    }

    /// No limit at all.
    public static let unlimited = SignupRateLimiter(limit: nil, store: nil)

    /// Reads every stored bucket; run once before serving.
    public func load() async throws {
        guard let store else { return }
        buckets.restore(try await store.allSignupBuckets().map { (key: $0.uid, bucket: $0.bucket) })
    }

    /// Takes one signup from `uid`'s bucket, or throws -32006 with the seconds until there is one.
    public func take(by uid: UInt32) throws(TwitterError) {
        guard let limit, uid != 0 else { return }
        if let retryAfter = buckets.take(uid, limit: limit, at: clock()) {
            throw TwitterError.rateLimited(
                retryAfter: retryAfter, limit: limit.count, "Too many \(counted): at most \(limit) per local user")
        }
    }

    /// Gives back a signup taken for an attempt that made no account (a taken username, a short password), so
    /// only accounts made count.
    public func giveBack(by uid: UInt32) {
        guard let limit, uid != 0 else { return }
        buckets.giveBack(uid, limit: limit)
    }

    /// Writes the buckets changed since the last flush.
    public func flush() async throws {
        guard let store else { return }
        try await buckets.save { changed in
            try await store.saveSignupBuckets(changed.map { (uid: $0.key, bucket: $0.bucket) })
        }
    }
}
