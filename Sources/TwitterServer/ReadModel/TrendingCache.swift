import Foundation
import Synchronization
import TwitterCore

/// The last answers of `tags.trending`, each kept for `maximumAge`: ranking the tags of a day groups every
/// tagged tweet of that day, so under steady posting the daemon does it at most once per window and size per
/// `maximumAge` rather than once per request. A tag posted meanwhile shows up at the latest that much later.
final class TrendingCache: Sendable {
    private struct Key: Hashable {
        let hours: Int
        let limit: Int
    }

    private struct Entry {
        let tags: [TrendingTag]
        let computedAt: ContinuousClock.Instant
    }

    private let entries = Mutex<[Key: Entry]>([:])
    /// How long an answer is served again.
    let maximumAge: Duration
    private let clock: @Sendable () -> ContinuousClock.Instant

    /// A cache serving answers for `maximumAge`; `clock` says what time it is (tests move it).
    init(maximumAge: Duration = .seconds(5), clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.maximumAge = maximumAge
        self.clock = clock
    }

    /// The tags of the last `hours`, at most `limit`, computed by `compute` when no answer is young enough.
    func tags(hours: Int, limit: Int, compute: () async throws -> [TrendingTag]) async throws -> [TrendingTag] {
        let key = Key(hours: hours, limit: limit)
        let now = clock()
        if let entry = entries.withLock({ $0[key] }), now - entry.computedAt < maximumAge { return entry.tags }
        let tags = try await compute()
        entries.withLock { $0[key] = Entry(tags: tags, computedAt: now) }
        return tags
    }
}
