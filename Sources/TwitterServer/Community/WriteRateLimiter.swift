import Foundation
import Logging
import Synchronization
import TwitterCore

/// The write rate limits of every account, one token bucket per account and action (`[rates]`).
///
/// The buckets live in memory, shared by all of an account's connections: a take is a lock and some
/// arithmetic, so a post still starts at once and pipelined posts still share a commit. They are read from the
/// store at start (`load`) and written back every few seconds and at shutdown (`RateBucketFlusher`), so a
/// restart keeps them.
public final class WriteRateLimiter: RateBucketFlushing {
    private struct Key: Hashable {
        var userID: Int64
        var action: RateLimitedAction
    }

    private struct State {
        var buckets: [Key: TokenBucket] = [:]
        var dirty: Set<Key> = []
    }

    private let limits: [RateLimitedAction: RateLimit]
    private let store: (any RateBucketStoring)?
    private let clock: @Sendable () -> Date
    private let state = Mutex(State())

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
        let stored = try await store.allBuckets()
        state.withLock { state in
            for entry in stored { state.buckets[Key(userID: entry.userID, action: entry.action)] = entry.bucket }
        }
    }

    /// Takes one `action` from `userID`'s bucket, or throws -32006 with the seconds until there is one.
    public func take(_ action: RateLimitedAction, by userID: Int64) throws(TwitterError) {
        guard let limit = limits[action] else { return }
        let now = clock()
        let retryAfter = state.withLock { state -> Int? in
            let key = Key(userID: userID, action: action)
            var bucket = state.buckets[key] ?? .full(limit, at: now)
            let wait = bucket.take(at: now, limit: limit)
            state.buckets[key] = bucket
            state.dirty.insert(key)
            return wait
        }
        if let retryAfter {
            throw TwitterError.rateLimited(
                retryAfter: retryAfter, "Too many \(action.rawValue): at most \(limit) per account")
        }
    }

    /// Takes one `action` from `userID`'s bucket for a write another daemon on the same database let through:
    /// never refused, since it happened; an empty bucket stays empty.
    public func charge(_ action: RateLimitedAction, by userID: Int64) {
        guard let limit = limits[action] else { return }
        let now = clock()
        state.withLock { state in
            let key = Key(userID: userID, action: action)
            var bucket = state.buckets[key] ?? .full(limit, at: now)
            _ = bucket.take(at: now, limit: limit)
            state.buckets[key] = bucket
            state.dirty.insert(key)
        }
    }

    /// Writes the buckets changed since the last flush.
    public func flush() async throws {
        guard let store else { return }
        let changed = state.withLock { state in
            defer { state.dirty = [] }
            return state.dirty.compactMap { key in
                state.buckets[key].map { (userID: key.userID, action: key.action, bucket: $0) }
            }
        }
        do {
            try await store.save(changed)
        } catch {
            // Kept dirty, for the next flush.
            state.withLock { state in
                for entry in changed { state.dirty.insert(Key(userID: entry.userID, action: entry.action)) }
            }
            throw error
        }
    }
}
