import Synchronization
import TwitterCore

/// The read model's first layer: the newest tweets of the whole feed. Most reads are "the latest page", and
/// answering those without the database is what lets the feed scale.
///
/// It always holds every tweet newer than its oldest entry, so a page it answers is exactly the page the
/// database would give. It is filled from the database once and then kept current by commits.
final class RecentTweetsCache: Sendable {
    private struct State {
        /// Newest first.
        var tweets: [Tweet] = []
        var isLoaded = false
        /// True when it holds every tweet there is (the table is smaller than the capacity).
        var isComplete = false
        /// Counts commits: the read model's version, and the guard that throws away a load that raced one.
        var version = 0
    }

    /// How many of the newest tweets are kept.
    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = 512) {
        self.capacity = capacity
    }

    /// The page for these bounds with the version it was read at, or nil when the cache cannot answer it exactly.
    func page(sinceID: Int64?, maxID: Int64?, limit: Int) -> (tweets: [Tweet], version: Int)? {
        state.withLock { state in
            guard state.isLoaded, let tweets = Self.page(of: state, sinceID: sinceID, maxID: maxID, limit: limit)
            else { return nil }
            return (tweets, state.version)
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
        // Ran out of kept tweets: right only if nothing older could still match.
        if state.isComplete { return page }
        if let sinceID, let oldest = state.tweets.last, sinceID >= oldest.id - 1 { return page }
        return nil
    }

    /// The version now: it moves on with every commit.
    var version: Int { state.withLock { $0.version } }

    /// True once filled from the database.
    var isLoaded: Bool { state.withLock { $0.isLoaded } }

    /// Fills it with the newest tweets read from the database at `version`, unless a commit came meanwhile.
    func load(_ newest: [Tweet], readAt version: Int) {
        state.withLock { state in
            guard !state.isLoaded, state.version == version else { return }
            state.tweets = Array(newest.prefix(capacity))
            state.isComplete = newest.count < capacity
            state.isLoaded = true
        }
    }

    /// Applies a commit's tweet events, in commit order (posts in ascending id order); any commit moves the
    /// version on.
    func apply(_ events: [CommitEvent]) {
        state.withLock { state in
            state.version += 1
            guard state.isLoaded else { return }
            // A batch of posts goes in with one insertion, not one shift of the whole array per tweet.
            var posted: [Tweet] = []
            for case .tweet(let event) in events {
                switch event {
                case .posted(let tweet):
                    // Loaded after the tweet's commit, before it was delivered here: held already. Ids are given
                    // out in commit order, so such a tweet is no newer than the newest held.
                    guard tweet.id > posted.last?.id ?? state.tweets.first?.id ?? 0 else { continue }
                    posted.append(tweet)
                case .deleted(let id, _, _):
                    state.tweets.insert(contentsOf: posted.reversed(), at: 0)
                    posted = []
                    state.tweets.removeAll { $0.id == id }
                case .counted(let id, let counts):
                    state.tweets.insert(contentsOf: posted.reversed(), at: 0)
                    posted = []
                    Self.setCounts(counts, of: id, in: &state.tweets)
                case .liked, .unliked, .bookmarked, .unbookmarked:
                    continue
                }
            }
            state.tweets.insert(contentsOf: posted.reversed(), at: 0)
            if state.tweets.count > capacity {
                state.tweets.removeLast(state.tweets.count - capacity)
                state.isComplete = false
            }
        }
    }

    /// Sets the counts of tweet `id` wherever it is held: as itself, and as the original of its reposts.
    private static func setCounts(_ counts: TweetCounts, of id: Int64, in tweets: inout [Tweet]) {
        for index in tweets.indices {
            if tweets[index].id == id {
                tweets[index].counts = counts
            } else if var original = tweets[index].repostOf, original.id == id {
                original.counts = counts
                tweets[index].repostOf = original
            }
        }
    }
}
