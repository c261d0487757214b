import Foundation
import Logging
import TwitterCore

/// The write rate limits of every account, one token bucket per account and action (`[rates]`).
///
/// The buckets live in memory, shared by all of an account's connections: a take is a lock and some
/// arithmetic, so a post still starts at once and pipelined posts still share a commit. They are read from the
/// store at start (`load`) and written back every few seconds and at shutdown (`RateBucketFlusher`), so a
/// restart keeps them.
public final class WriteRateLimiter: RateBucketFlushing {
    private struct Key: Hashable, Sendable {
        var userID: Int64
        var action: RateLimitedAction
    }

    private let limits: [RateLimitedAction: RateLimit]
    private let store: (any RateBucketStoring)?
    private let clock: @Sendable () -> Date
    private let buckets = TokenBuckets<Key>()

    /// Limits `limits` (an action without one is free), keeping buckets in `store`; `clock` is replaced in tests.
    public init(
        limits: [RateLimitedAction: RateLimit], store: (any RateBucketStoring)?,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.limits = limits
        self.store = store
        self.clock = clock
    }

    /// No limits at all.
    public static let unlimited = WriteRateLimiter(limits: [:], store: nil)

    /// Reads every stored bucket; run once before serving.
    public func load() async throws {
        guard let store else { return }
        buckets.restore(
            try await store.allBuckets().map { (key: Key(userID: $0.userID, action: $0.action), bucket: $0.bucket) })
    }

    /// Takes one `action` from `userID`'s bucket, or throws -32006 with the seconds until there is one.
    public func take(_ action: RateLimitedAction, by userID: Int64) throws(TwitterError) {
        guard let limit = limits[action] else { return }
        if let retryAfter = buckets.take(Key(userID: userID, action: action), limit: limit, at: clock()) {
            throw TwitterError.rateLimited(
                retryAfter: retryAfter, limit: limit.count, "Too many \(action.words): at most \(limit) per account")
        }
    }

    /// Takes one from `userID`'s bucket of the rate named `name` (a method's `MethodDescriptor.rate`, a
    /// `RateLimitedAction`'s raw value), or throws -32006 with the seconds until there is one. A name no action has
    /// is a programming error the assembly refuses at start (`DaemonAssembly`), so here it limits nothing.
    public func take(named name: String, by userID: Int64) throws(TwitterError) {
        guard let action = RateLimitedAction(rawValue: name) else { return }
        try take(action, by: userID)
    }

    /// Takes one `action` from `userID`'s bucket for a write another daemon on the same database let through:
    /// never refused, since it happened; an empty bucket stays empty.
    public func charge(_ action: RateLimitedAction, by userID: Int64) {
        guard let limit = limits[action] else { return }
        _ = buckets.take(Key(userID: userID, action: action), limit: limit, at: clock())
    }

    /// Writes the buckets changed since the last flush.
    public func flush() async throws {
        guard let store else { return }
        try await buckets.save { changed in
            try await store.save(changed.map { (userID: $0.key.userID, action: $0.key.action, bucket: $0.bucket) })
        }
    }
}
