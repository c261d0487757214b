import Synchronization
import TwitterCore

/// The newest tweets of the whole feed, in memory: most reads are "the latest page", and answering those
/// without SQLite is what lets the feed scale.
///
/// The cache always holds every tweet newer than its oldest entry, so a page it answers is exactly the page
/// the database would give. It is filled from the database once and then kept current by the committer.
final class FeedCache: Sendable {
    private struct State {
        /// Newest first.
        var tweets: [Tweet] = []
        var isLoaded = false
        /// True when the cache holds every tweet there is (the table is smaller than the capacity).
        var isComplete = false
        /// Counts changes, so a load that raced with a commit is thrown away instead of hiding the commit.
        var generation = 0
    }

    /// How many of the newest tweets are kept.
    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = 512) {
        self.capacity = capacity
    }

    /// The page for these bounds, or nil when the cache cannot answer it exactly.
    func page(sinceID: Int64?, maxID: Int64?, limit: Int) -> CachedPage? {
        state.withLock { state in
            guard state.isLoaded, let tweets = Self.page(of: state, sinceID: sinceID, maxID: maxID, limit: limit)
            else { return nil }
            return CachedPage(tweets: tweets, feedVersion: state.generation)
        }
    }

    private static func page(of state: State, sinceID: Int64?, maxID: Int64?, limit: Int) -> [Tweet]? {
        var page: [Tweet] = []
        for tweet in state.tweets {
            if let maxID, tweet.id >= maxID { continue }
            if let sinceID, tweet.id <= sinceID { return page }
            page.append(tweet)
            if page.count == limit { return page }
        }
        // Ran out of cached tweets: right only if nothing older could still match.
        if state.isComplete { return page }
        if let sinceID, let oldest = state.tweets.last, sinceID >= oldest.id - 1 { return page }
        return nil
    }

    /// The generation to hand back to `load` after reading from the database.
    var generation: Int { state.withLock { $0.generation } }

    /// Fills the cache with the newest tweets read from the database, unless something changed meanwhile.
    func load(_ newest: [Tweet], readAt generation: Int) {
        state.withLock { state in
            guard !state.isLoaded, state.generation == generation else { return }
            state.tweets = Array(newest.prefix(capacity))
            state.isComplete = newest.count < capacity
            state.isLoaded = true
        }
    }

    /// New tweets, committed, in ascending id order.
    func inserted(_ tweets: [Tweet]) {
        guard !tweets.isEmpty else { return }
        state.withLock { state in
            state.generation += 1
            guard state.isLoaded else { return }
            state.tweets.insert(contentsOf: tweets.reversed(), at: 0)
            if state.tweets.count > capacity {
                state.tweets.removeLast(state.tweets.count - capacity)
                state.isComplete = false
            }
        }
    }

    /// A committed deletion.
    func deleted(id: Int64) {
        state.withLock { state in
            state.generation += 1
            state.tweets.removeAll { $0.id == id }
        }
    }
}
