import Synchronization
import TwitterCore

/// The read model's fifth layer: the newest tweets of each recently read account, so that home and user
/// timelines are merged from this cache rather than queried (fan-out on read).
///
/// Measured with `make bench` (docs/BENCHMARKS.md): the query a home page needs (tweets of the people one
/// follows, newest first) cost about 3 ms in SQLite on the seeded network; merging the windows costs
/// microseconds. A window holds an account's newest `size` tweets; a page that reaches past a window it
/// depends on is not answered here but by the store, so every page is the store's page.
final class AuthorTimelineCache: Sendable {
    /// One account's newest tweets: a snapshot a reader copies out under the lock (one reference per account)
    /// and merges outside it. A change makes a new window, except a new tweet put into a window no reader holds
    /// (`insertNewest(_:into:)`): changed under the lock while the cache holds the only reference, a window is
    /// never changed under a reader, hence `@unchecked Sendable`.
    final class Window: @unchecked Sendable {
        /// Newest first, at most `size`.
        private(set) var tweets: [Tweet]
        /// The tweets' ids, beside them: the merge compares ids only, without copying tweets.
        private(set) var ids: [Int64]
        /// True when it holds every tweet the account has.
        private(set) var isComplete: Bool
        /// How many tweets it keeps: `size`, or more for an account whose many tweets fill whole pages.
        let depth: Int

        init(_ tweets: [Tweet], isComplete: Bool, depth: Int) {
            self.tweets = tweets
            ids = tweets.map(\.id)
            self.isComplete = isComplete
            self.depth = depth
        }

        /// This window with a new tweet first, and the oldest it pushes out past its depth.
        func insertingNewest(_ tweet: Tweet) -> (Window, dropped: Tweet?) {
            var tweets = [tweet] + self.tweets
            guard tweets.count > depth else { return (Window(tweets, isComplete: isComplete, depth: depth), nil) }
            let dropped = tweets.removeLast()
            return (Window(tweets, isComplete: false, depth: depth), dropped)
        }

        /// `insertingNewest` done to this window itself, for a window no reader holds; returns the tweet dropped.
        fileprivate func insertNewest(_ tweet: Tweet) -> Tweet? {
            tweets.insert(tweet, at: 0)
            ids.insert(tweet.id, at: 0)
            guard tweets.count > depth else { return nil }
            isComplete = false
            ids.removeLast()
            return tweets.removeLast()
        }

        /// This window without tweet `id`, and the tweet removed; nil when it does not hold it.
        func removing(_ id: Int64) -> (Window, removed: Tweet)? {
            guard let index = ids.firstIndex(of: id) else { return nil }
            var tweets = self.tweets
            let removed = tweets.remove(at: index)
            return (Window(tweets, isComplete: isComplete, depth: depth), removed)
        }

        /// This window with the counts of tweet `id` set wherever it shows it.
        func settingCounts(_ counts: TweetCounts, of id: Int64) -> Window {
            var tweets = self.tweets
            for index in tweets.indices {
                if ids[index] == id {
                    tweets[index].counts = counts
                } else if var original = tweets[index].repostOf, original.id == id {
                    original.counts = counts
                    tweets[index].repostOf = original
                }
            }
            return Window(tweets, isComplete: isComplete, depth: depth)
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

    /// Tweets kept per account at first: a home page of 20 over a hundred accounts rarely reaches further
    /// back. An account whose tweets fill whole pages gets a deeper window when a page needs one.
    static let size = 32
    /// The deepest window: a page of 200 collapsed from 400.
    static let deepest = 400
    /// Accounts kept; past it the layer starts again.
    static let capacity = 20_000

    private let state = Mutex(State())

    /// Loads the windows of `authors` that are not cached, or hold fewer than `depth` tweets, one query each.
    func load(_ authors: some Sequence<Int64>, depth: Int = size, store: any TweetStoring) async throws {
        for author in authors {
            let (touched, countChanges, deepEnough) = state.withLock {
                ($0.touched[author, default: 0], $0.countChanges, ($0.windows[author]?.depth ?? 0) >= depth)
            }
            guard !deepEnough else { continue }
            let newest = try await store.tweets(TweetQuery(.author(author), limit: depth + 1))
            let window = Window(Array(newest.prefix(depth)), isComplete: newest.count <= depth, depth: depth)
            state.withLock { state in
                guard state.touched[author, default: 0] == touched, state.countChanges == countChanges else { return }
                if state.windows.count >= Self.capacity {
                    state.windows = [:]
                    state.holders = [:]
                }
                if let old = state.windows[author] {
                    for tweet in old.tweets { Self.release(tweet, by: author, in: &state) }
                }
                state.windows[author] = window
                for tweet in window.tweets { Self.hold(tweet, by: author, in: &state) }
            }
        }
    }

    /// The accounts among `authors` whose window is not cached.
    func missing(_ authors: some Sequence<Int64>) -> [Int64] {
        state.withLock { state in authors.filter { state.windows[$0] == nil } }
    }

    /// What the windows can say of a page.
    enum Merge {
        /// The page, exactly as the store would give it.
        case page([Tweet])
        /// Some windows are not cached.
        case missing
        /// These accounts' windows stop short of what the page needs: deeper windows may answer it.
        case tooShallow([Int64])
    }

    /// The newest `limit` tweets of `authors` within the query's bounds, newest first, exactly as the store
    /// would give them, when the windows hold them.
    func newest(of authors: some Collection<Int64>, sinceID: Int64?, maxID: Int64?, limit: Int) -> Merge {
        // The windows are copied out under the lock (one reference each) and merged outside it, so readers do
        // not queue behind each other's merges.
        let taken = state.withLock { state -> [(Int64, Window)]? in
            var windows: [(Int64, Window)] = []
            windows.reserveCapacity(authors.count)
            for author in authors {
                guard let window = state.windows[author] else { return nil }
                windows.append((author, window))
            }
            return windows
        }
        guard let taken else { return .missing }
        let page = Self.merge(taken.map(\.1), sinceID: sinceID, maxID: maxID, limit: limit)
        var shallow: [Int64] = []
        for (author, window) in taken where !window.isComplete {
            // What the window does not hold is older than its oldest tweet.
            guard let oldest = window.ids.last else {
                shallow.append(author)
                continue
            }
            if let sinceID, oldest <= sinceID + 1 { continue }
            if page.count == limit, let last = page.last?.id, oldest <= last { continue }
            shallow.append(author)
        }
        return shallow.isEmpty ? .page(page) : .tooShallow(shallow)
    }

    /// Merges newest-first windows into the newest `limit` tweets within the bounds: a k-way merge over one
    /// flat array of each window's next id, which looks at `limit` tweets, not at every tweet held.
    private static func merge(_ windows: [Window], sinceID: Int64?, maxID: Int64?, limit: Int) -> [Tweet] {
        let floor = sinceID ?? Int64.min
        // Per window, the index of its next candidate (the first below maxID) and that candidate's id.
        var next = windows.map { window in
            maxID.map { bound in window.ids.firstIndex { $0 < bound } ?? window.ids.count } ?? 0
        }
        var heads = windows.indices.map { next[$0] < windows[$0].ids.count ? windows[$0].ids[next[$0]] : Int64.min }
        var page: [Tweet] = []
        page.reserveCapacity(limit)
        while page.count < limit {
            var best = 0
            for index in heads.indices where heads[index] > heads[best] { best = index }
            guard !heads.isEmpty, heads[best] > floor else { break }
            let window = windows[best]
            page.append(window.tweets[next[best]])
            next[best] += 1
            heads[best] = next[best] < window.ids.count ? window.ids[next[best]] : Int64.min
        }
        return page
    }

    /// Puts `tweet` first in `window`, returning the tweet pushed out past its depth: in place when `window` is the
    /// only reference (taken out of the cache, held by no reader), else into a new window, as any other change.
    /// In place, a post copies no tweet: `bench/instructions.sh` counted 153,898 instructions a post with a new
    /// window each time (a window's 32 tweets and their ids copied), 145,664 in place.
    static func insertNewest(_ tweet: Tweet, into window: inout Window) -> Tweet? {
        if isKnownUniquelyReferenced(&window) { return window.insertNewest(tweet) }
        let (changed, dropped) = window.insertingNewest(tweet)
        window = changed
        return dropped
    }

    /// Applies a commit's postings, deletions and count changes to the windows cached. An account's change of
    /// standing is not applied here: it replaces the whole cache (`FeedReadModel.committed`).
    func apply(_ events: [CommitEvent]) {
        state.withLock { state in
            for case .tweet(let event) in events {
                switch event {
                case .posted(let tweet):
                    let author = tweet.author.id
                    state.touched[author, default: 0] += 1
                    // A window loaded after the tweet's commit, before it was delivered here, holds it already:
                    // ids are given out in commit order, so it is no newer than the window's newest.
                    guard var window = state.windows.removeValue(forKey: author) else { continue }
                    guard tweet.id > window.ids.first ?? 0 else {
                        state.windows[author] = window
                        continue
                    }
                    let dropped = Self.insertNewest(tweet, into: &window)
                    state.windows[author] = window
                    Self.hold(tweet, by: author, in: &state)
                    if let dropped { Self.release(dropped, by: author, in: &state) }
                case .deleted(let id, let author, _):
                    state.touched[author, default: 0] += 1
                    guard let (changed, removed) = state.windows[author]?.removing(id) else { continue }
                    state.windows[author] = changed
                    Self.release(removed, by: author, in: &state)
                case .counted(let id, let counts):
                    state.countChanges += 1
                    for author in state.holders[id] ?? [] {
                        state.windows[author] = state.windows[author]?.settingCounts(counts, of: id)
                    }
                case .liked, .unliked, .bookmarked, .unbookmarked:
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
