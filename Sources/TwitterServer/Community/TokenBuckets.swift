import Foundation
import Synchronization
import TwitterCore

/// The token buckets of one kind of limit, by key, in memory, with the keys changed since they were last saved:
/// the one home of the bookkeeping `WriteRateLimiter` (by account and action) and `SignupRateLimiter` (by uid)
/// share. A take is a lock and some arithmetic.
final class TokenBuckets<Key: Hashable & Sendable>: Sendable {
    private struct State {
        var buckets: [Key: TokenBucket] = [:]
        var dirty: Set<Key> = []
    }

    private let state = Mutex(State())

    /// Puts back buckets read from the store at start.
    func restore(_ entries: [(key: Key, bucket: TokenBucket)]) {
        state.withLock { state in
            for entry in entries { state.buckets[entry.key] = entry.bucket }
        }
    }

    /// Takes one token from `key`'s bucket (full when new); the seconds until there is one when it is empty. An
    /// empty bucket stays empty.
    func take(_ key: Key, limit: RateLimit, at now: Date) -> Int? {
        state.withLock { state in
            var bucket = state.buckets[key] ?? .full(limit, at: now)
            let wait = bucket.take(at: now, limit: limit)
            state.buckets[key] = bucket
            state.dirty.insert(key)
            return wait
        }
    }

    /// Gives back a token taken for an attempt that came to nothing, up to the bucket's size.
    func giveBack(_ key: Key, limit: RateLimit) {
        state.withLock { state in
            guard var bucket = state.buckets[key] else { return }
            bucket.tokens = min(Double(limit.count), bucket.tokens + 1)
            state.buckets[key] = bucket
            state.dirty.insert(key)
        }
    }

    /// Hands the buckets changed since the last save to `save`; they stay marked changed when it fails, for the
    /// next time.
    func save(_ save: ([(key: Key, bucket: TokenBucket)]) async throws -> Void) async throws {
        let changed = state.withLock { state in
            defer { state.dirty = [] }
            return state.dirty.compactMap { key in state.buckets[key].map { (key: key, bucket: $0) } }
        }
        do {
            try await save(changed)
        } catch {
            state.withLock { state in
                for entry in changed { state.dirty.insert(entry.key) }
            }
            throw error
        }
    }
}
