import Synchronization
import TwitterCore

/// The read model's fifth layer: the newest tweets of each recently read account, so that home and user
/// timelines are merged in memory rather than queried (fan-out on read, from memory).
///
/// Measured with `make bench` (docs/BENCHMARKS.md): the query a home page needs (tweets of the people one
/// follows, newest first) cost about 3 ms in SQLite on the seeded network; merging the windows costs
/// microseconds. A window holds an account's newest `size` tweets; a page that reaches past a window it
/// depends on is not answered here but by the store, so every page is the store's page.
final class AuthorWindows: Sendable {
    /// One account's newest tweets.
    struct Window: Sendable {
        /// Newest first, at most `size`.
        private(set) var tweets: [Tweet]
        /// The tweets' ids, beside them: the merge compares ids only, without copying tweets.
        private(set) var ids: [Int64]
        /// True when it holds every tweet the account has.
        var isComplete: Bool

        init(_ tweets: [Tweet], isComplete: Bool) {
            self.tweets = tweets
            ids = tweets.map(\.id)
            self.isComplete = isComplete
        }

        /// Puts a new tweet first; returns the oldest when that pushes it past `size`.
        mutating func insertNewest(_ tweet: Tweet) -> Tweet? {
            tweets.insert(tweet, at: 0)
            ids.insert(tweet.id, at: 0)
            guard tweets.count > AuthorWindows.size else { return nil }
            isComplete = false
            ids.removeLast()
            return tweets.removeLast()
        }

        /// Removes tweet `id`, if held.
        mutating func remove(_ id: Int64) -> Tweet? {
            guard let index = ids.firstIndex(of: id) else { return nil }
            ids.remove(at: index)
            return tweets.remove(at: index)
        }

        /// Sets the counts of tweet `id` wherever the window shows it.
        mutating func setCounts(_ counts: TweetCounts, of id: Int64) {
            for index in tweets.indices {
                if ids[index] == id {
                    tweets[index].counts = counts
                } else if var original = tweets[index].repostOf, original.id == id {
                    original.counts = counts
                    tweets[index].repostOf = original
                }
            }
        }
    }

    private struct State {
        var windows: [Int64: Window] = [:]
        /// For each tweet id shown in some window (as itself or as a repost's original), the accounts whose
        /// window shows it: where a change of its counts must go.
        var holders: [Int64: Set<Int64>] = [:]
        /// Counts the postings and deletions applied per account, to tell a load that raced one.
        var touched: [Int64: Int] = [:]
        /// Counts the count changes applied, for the same reason.
        var countChanges = 0
    }

    /// Tweets kept per account: a home page of 20 over a hundred accounts rarely reaches further back.
    static let size = 32
    /// Accounts kept; past it the layer starts again.
    static let capacity = 20_000

    private let state = Mutex(State())

    /// Loads the windows of `authors` that are not in memory, one query each.
    func load(_ authors: some Sequence<Int64>, store: any TweetStoring) async throws {
        for author in authors {
            let (touched, countChanges, present) = state.withLock {
                ($0.touched[author, default: 0], $0.countChanges, $0.windows[author] != nil)
            }
            guard !present else { continue }
            let newest = try await store.tweets(TweetQuery(.author(author), limit: Self.size + 1))
            let window = Window(Array(newest.prefix(Self.size)), isComplete: newest.count <= Self.size)
            state.withLock { state in
                guard state.touched[author, default: 0] == touched, state.countChanges == countChanges else { return }
                if state.windows.count >= Self.capacity { state.windows = [:]; state.holders = [:] }
                state.windows[author] = window
                for tweet in window.tweets { Self.hold(tweet, by: author, in: &state) }
            }
        }
    }

    /// The accounts among `authors` whose window is not in memory.
    func missing(_ authors: some Sequence<Int64>) -> [Int64] {
        state.withLock { state in authors.filter { state.windows[$0] == nil } }
    }

    /// The newest `limit` tweets of `authors` within the query's bounds, newest first, exactly as the store
    /// would give them; nil when a window is missing or a window that stops short could hide one of them.
    func newest(of authors: some Collection<Int64>, sinceID: Int64?, maxID: Int64?, limit: Int) -> [Tweet]? {
        state.withLock { state in
            var windows: [Window] = []
            windows.reserveCapacity(authors.count)
            for author in authors {
                guard let window = state.windows[author] else { return nil }
                windows.append(window)
            }
            let page = Self.merge(windows, sinceID: sinceID, maxID: maxID, limit: limit)
            for window in windows where !window.isComplete {
                // What the window does not hold is older than its oldest tweet.
                guard let oldest = window.ids.last else { return nil }
                if let sinceID, oldest <= sinceID + 1 { continue }
                if page.count == limit, let last = page.last?.id, oldest <= last { continue }
                return nil
            }
            return page
        }
    }

    /// Merges newest-first windows into the newest `limit` tweets within the bounds: a k-way merge that looks
    /// at `limit` tweets, not at every tweet held.
    private static func merge(_ windows: [Window], sinceID: Int64?, maxID: Int64?, limit: Int) -> [Tweet] {
        // Per window, the index of its next candidate: the first below maxID.
        var next = windows.map { window in
            maxID.map { bound in window.ids.firstIndex { $0 < bound } ?? window.ids.count } ?? 0
        }
        var page: [Tweet] = []
        page.reserveCapacity(limit)
        while page.count < limit {
            var best = -1
            var bestID = Int64.min
            for index in windows.indices where next[index] < windows[index].ids.count {
                let id = windows[index].ids[next[index]]
                if id > bestID {
                    best = index
                    bestID = id
                }
            }
            guard best >= 0, sinceID.map({ bestID > $0 }) ?? true else { break }
            page.append(windows[best].tweets[next[best]])
            next[best] += 1
        }
        return page
    }

    /// Applies committed postings, deletions and count changes to the windows in memory.
    func apply(_ events: [TweetEvent]) {
        state.withLock { state in
            for event in events {
                switch event {
                case .posted(let tweet):
                    let author = tweet.author.id
                    state.touched[author, default: 0] += 1
                    guard var window = state.windows[author] else { continue }
                    let dropped = window.insertNewest(tweet)
                    state.windows[author] = window
                    Self.hold(tweet, by: author, in: &state)
                    if let dropped { Self.release(dropped, by: author, in: &state) }
                case .deleted(let id, let author, _):
                    state.touched[author, default: 0] += 1
                    guard var window = state.windows[author], let removed = window.remove(id) else { continue }
                    state.windows[author] = window
                    Self.release(removed, by: author, in: &state)
                case .counted(let id, let counts):
                    state.countChanges += 1
                    for author in state.holders[id] ?? [] {
                        state.windows[author]?.setCounts(counts, of: id)
                    }
                case .liked, .unliked, .followed, .unfollowed:
                    continue
                }
            }
        }
    }

    private static func hold(_ tweet: Tweet, by author: Int64, in state: inout State) {
        state.holders[tweet.id, default: []].insert(author)
        if let original = tweet.repostOf { state.holders[original.id, default: []].insert(author) }
    }

    private static func release(_ tweet: Tweet, by author: Int64, in state: inout State) {
        let window = state.windows[author]?.tweets ?? []
        for id in [tweet.id, tweet.repostOf?.id].compactMap({ $0 })
        where !window.contains(where: { $0.id == id || $0.repostOf?.id == id }) {
            state.holders[id]?.remove(author)
            if state.holders[id]?.isEmpty == true { state.holders[id] = nil }
        }
    }
}
