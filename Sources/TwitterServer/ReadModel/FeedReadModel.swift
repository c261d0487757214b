import Synchronization
import TwitterCore
import TwitterRuntime

/// Tweets as the server caches them, kept current by commits: one place, one invalidation rule.
///
/// Every commit the stores publish (`CommitPublisher`; with a shared database, every commit another daemon made
/// too) is delivered to `committed`, which moves the version on, applies the commit to each layer, and publishes
/// it to the live streams. The layers, each a cache named for what it holds:
///
/// 1. `recentTweets` (`RecentTweetsCache`): the newest tweets with their counts, which answer the public
///    timeline's latest pages exactly;
/// 2. `tweetJSON` (`TweetJSONCache`): each recent tweet's JSON head, used only for a tweet with the same head, so
///    it needs no invalidation;
/// 3. `publicPages` and `homeAndUserPages` (`FeedPageCache`): whole public pages, and home and user pages, kept
///    only for the version they were read at;
/// 4. `marks` (`ReaderMarksCache`): what each recent reader liked and reposted, for the per-reader `likedByMe`
///    and `repostedByMe` of every answer;
/// 5. `authorTimelines` (`AuthorTimelineCache`) and `following`: each recently read account's newest tweets and
///    whom each recent reader follows, from which home and user timelines are merged (fan-out on read, from the
///    caches; see docs/BENCHMARKS.md for why not on write);
/// 6. `hidden`: whom each recent reader mutes, blocks or is blocked by. A reader who hides anyone reads from the
///    store, which leaves those accounts out in SQL; everyone else's pages stay shared.
/// 7. `offWeb` (`OffWebAccountsCache`): the accounts off the public web pages, which the web's reader (nobody)
///    hides as a block hides them: while there is none, a web page is a shared page like any other; and
///    `accountCounts` (`AccountCountsCache`): each recently shown account's counts, for its public profile page.
///
/// The layers live together in one `ReadModelCaches`: a suspension, its end or an account's deletion replaces it.
///
/// Every layer answers only what the store would answer; a read it cannot answer exactly goes to the store.
public final class FeedReadModel: CommitObserving {
    /// The live streams: subscriptions to timelines.
    public let hub: CommitHub
    private let capacity: Int
    /// The layers. An account's change of standing (`AccountEvent.standingChanged`: a suspension, its end, a
    /// deletion) changes what every layer holds at once, so it replaces them all with empty ones; a read keeps
    /// the layers it began with, so what it loads from before the change never lands in the new ones.
    private let current: Mutex<ReadModelCaches>
    /// Other daemons on the same database: unless this daemon is current (`OtherDaemons.isCurrent`), the caches
    /// answer only after catching up with their commits.
    private let others = Mutex<any OtherDaemons>(NoOtherDaemons())

    /// Where the stores publish their commits, which this model is subscribed to (through the relay): a read that
    /// must hold every answered write waits until the publisher's delivery has applied what was published before it.
    private let commits: CommitPublisher?

    /// Creates an empty model that publishes to `hub`; it fills from the store on the first read. With
    /// `commits`, reads first wait for what the stores published to be applied (the daemon's assembly); without,
    /// the stores tell this model of their commits themselves (tests).
    public init(hub: CommitHub, capacity: Int = 512, commits: CommitPublisher? = nil) {
        self.hub = hub
        self.capacity = capacity
        self.commits = commits
        current = Mutex(ReadModelCaches(capacity: capacity))
    }

    /// Catches up with `others` before each page from now on: set once the stores, which deliver their commits
    /// here, exist.
    public func share(with others: any OtherDaemons) {
        self.others.withLock { $0 = others }
    }

    /// The layers as they are, whatever waits to be applied: for what needs no commit (a tweet's JSON head), and
    /// for the reads that waited first (`waitUntilApplied`).
    var caches: ReadModelCaches {
        current.withLock { $0 }
    }

    /// Returns once every commit published before this call is applied to the layers and the live streams: what a
    /// read waits for first, and what a new subscription waits for before it joins the hub, so that it hears
    /// nothing answered before it. At once (two loads) when nothing waits.
    func waitUntilApplied() async {
        if let commits, !commits.isApplied { await commits.waitUntilApplied() }
    }

    /// Whether every commit published so far is applied: a read that cannot wait answers from caches only then.
    private var isApplied: Bool { commits?.isApplied ?? true }

    /// What each recent reader liked and reposted, with every commit published so far applied.
    var marks: ReaderMarksCache {
        get async {
            await waitUntilApplied()
            return caches.marks
        }
    }

    /// Applies a commit to the caches, then to the live streams.
    public func committed(_ events: [CommitEvent]) {
        guard !events.isEmpty else { return }
        if events.contains(where: \.changesStanding) {
            let fresh = ReadModelCaches(capacity: capacity)
            current.withLock { $0 = fresh }
        } else {
            caches.apply(events)
        }
        hub.publish(events)
    }

    /// The answer to `query` for `reader` from caches, or nil when it needs the store (an old page, nothing
    /// loaded yet, the reader's marks or hidden accounts not in caches, or a reader who hides anyone) or, on a
    /// database other daemons may share, the catching up of `page`.
    func cachedPage(_ query: TweetQuery, reader: Int64, in caches: ReadModelCaches? = nil) -> FeedPage? {
        guard case .page(let page)? = cachedAnswer(query, reader: reader, in: caches) else { return nil }
        return page
    }

    /// What caches answer for one reader: the page itself, or, for a page holding a quote, its tweets with the
    /// reader's marks, which `page` completes with the quoted tweets as the reader may see them.
    enum CachedAnswer {
        /// The whole answer.
        case page(FeedPage)
        /// The tweets of a page holding a quote, marked for the reader, their quoted tweets not yet resolved.
        case quoting([Tweet])
    }

    /// `cachedPage`, with the pages that hold a quote given as their marked tweets.
    private func cachedAnswer(_ query: TweetQuery, reader: Int64, in caches: ReadModelCaches? = nil)
        -> CachedAnswer?
    {
        if caches == nil, !isApplied || !others.withLock({ $0 }).isCurrent { return nil }
        let caches = caches ?? self.caches
        let (recentTweets, publicPages, marks, following, hidden, tweetJSON) = (
            caches.recentTweets, caches.publicPages, caches.marks, caches.following, caches.hidden, caches.tweetJSON
        )
        guard let readerMarks = marks.cached(reader), hidden.cached(reader)?.isEmpty == true else { return nil }
        switch query.timeline {
        case .tag, .list:
            // A list's members are not held in caches: its pages come from the store, paged like home's.
            return nil
        case .everyone:
            if let kept = publicPages.page(for: query, at: recentTweets.version) {
                return answer(kept, marks: readerMarks, json: tweetJSON)
            }
            guard
                let (tweets, version) = recentTweets.page(
                    sinceID: query.sinceID, maxID: query.maxID, limit: query.limit)
            else { return nil }
            let kept = FeedPageCache.Page(tweets, json: tweetJSON)
            publicPages.keep(kept, for: query, at: version)
            return answer(kept, marks: readerMarks, json: tweetJSON)
        case .author(let author):
            return merged([author], query, marks: readerMarks, in: caches)
        case .home(let owner):
            guard let followees = following.cached(owner) else { return nil }
            // The owner's own tweets are on their home timeline too.
            let authors = followees.contains(owner) ? Array(followees) : Array(followees) + [owner]
            return merged(authors, query, marks: readerMarks, in: caches)
        }
    }

    /// A home or user page merged from the authors' windows, collapsed like the store's.
    /// Kept at the version read before the merge, so a kept page is never older than its version.
    private func merged(
        _ authors: some Collection<Int64>, _ query: TweetQuery, marks: ReaderMarks, in caches: ReadModelCaches
    ) -> CachedAnswer? {
        let version = caches.recentTweets.version
        if let kept = caches.homeAndUserPages.page(for: query, at: version) {
            return answer(kept, marks: marks, json: caches.tweetJSON)
        }
        guard case .page(let tweets) = merge(authors, query, in: caches) else { return nil }
        let page = Timeline.collapsed(tweets, limit: query.limit)
        let kept = FeedPageCache.Page(page, json: caches.tweetJSON)
        caches.homeAndUserPages.keep(kept, for: query, at: version)
        return answer(kept, marks: marks, json: caches.tweetJSON)
    }

    private func merge(_ authors: some Collection<Int64>, _ query: TweetQuery, in caches: ReadModelCaches)
        -> AuthorTimelineCache.Merge
    {
        caches.authorTimelines.newest(
            of: authors, sinceID: query.sinceID, maxID: query.maxID, limit: Self.widerLimit(query.limit))
    }

    /// The authors whose windows a home or user page is merged from.
    private func authors(of timeline: Timeline, stores: ReadStores, in caches: ReadModelCaches) async throws -> [Int64]
    {
        switch timeline {
        case .everyone, .tag, .list: return []
        case .author(let author): return [author]
        case .home(let owner):
            let followees = try await caches.following.value(of: owner) {
                try await stores.follows.followeeIDs(of: owner)
            }
            return followees.contains(owner) ? Array(followees) : Array(followees) + [owner]
        }
    }

    /// The page for a reader with `marks`. A page holding a quote is never answered from its kept bytes: the
    /// quoted tweet is seen per reader (a block or a mute makes it unavailable), so its tweets are given to
    /// `page` to resolve (`quoting`).
    private func answer(_ page: FeedPageCache.Page, marks: ReaderMarks, json: TweetJSONCache) -> CachedAnswer {
        guard !page.tweets.contains(where: \.holdsQuote) else { return .quoting(page.tweets.map(marks.applied)) }
        guard marks.touches(page.tweets) else { return .page(FeedPage(json: page.unmarkedJSON)) }
        // The kept bytes with the reader's marks written over them (`PageMarks`), not the page written again.
        if let marked = page.marks?.applied(marks, to: page.unmarkedJSON) { return .page(FeedPage(json: marked)) }
        return .page(FeedPage(page.tweets.map(marks.applied), json: json))
    }

    /// The page `found` answers for `reader`, a page holding a quote completed with the quoted tweets.
    private func completed(
        _ found: CachedAnswer, for reader: Int64, marks: ReaderMarks, stores: ReadStores, json: TweetJSONCache
    ) async throws -> FeedPage {
        switch found {
        case .page(let page): page
        case .quoting(let tweets):
            FeedPage(try await quoting(tweets, for: reader, marks: marks, stores: stores), json: json)
        }
    }

    /// The answer to `query` for `reader`, from caches when it can be, filling caches from the stores on the
    /// first read of each part. The accounts in `alsoHiding` (the web's, which keep themselves off it) are left
    /// out as a block leaves them out, by the one policy.
    func page(
        _ query: TweetQuery, reader: Int64, alsoHiding: Set<Int64> = [], stores: ReadStores
    ) async throws -> FeedPage {
        try await catchUpWithOthers()
        await waitUntilApplied()
        let caches = self.caches
        let (recentTweets, authorTimelines, tweetJSON) = (
            caches.recentTweets, caches.authorTimelines, caches.tweetJSON
        )
        let readerMarks = try await caches.marks.marks(of: reader, store: stores.likes)
        var hidden = try await hiddenAccounts(of: reader, stores: stores)
        hidden.blocking.formUnion(alsoHiding)
        let visibility = TweetVisibility(hidden)
        guard visibility.hidden.isEmpty else {
            // The store leaves the hidden accounts out in SQL; the policy has the last word on what it read.
            var query = query
            query.hiding = visibility.hiding
            let tweets = visibility.listed(try await storePage(query, stores: stores)).map(readerMarks.applied)
            return FeedPage(
                try await quoting(tweets, for: reader, alsoHiding: alsoHiding, marks: readerMarks, stores: stores),
                json: tweetJSON)
        }
        if let found = cachedAnswer(query, reader: reader, in: caches) {
            return try await completed(found, for: reader, marks: readerMarks, stores: stores, json: tweetJSON)
        }
        switch query.timeline {
        case .tag, .list:
            // Not held in caches.
            break
        case .everyone:
            if !recentTweets.isLoaded {
                let version = recentTweets.version
                recentTweets.load(
                    try await stores.tweets.tweets(TweetQuery(limit: recentTweets.capacity)), readAt: version)
            }
        case .author, .home:
            let authors = try await authors(of: query.timeline, stores: stores, in: caches)
            try await authorTimelines.load(authorTimelines.missing(authors), store: stores.tweets)
            // An account whose tweets fill the page gets a window deep enough for it, once.
            if case .tooShallow(let shallow) = merge(authors, query, in: caches), query.maxID == nil {
                try await authorTimelines.load(
                    shallow, depth: min(Self.widerLimit(query.limit), AuthorTimelineCache.deepest), store: stores.tweets
                )
            }
        }
        if let found = cachedAnswer(query, reader: reader, in: caches) {
            return try await completed(found, for: reader, marks: readerMarks, stores: stores, json: tweetJSON)
        }
        let tweets = try await storePage(query, stores: stores).map(readerMarks.applied)
        return FeedPage(try await quoting(tweets, for: reader, marks: readerMarks, stores: stores), json: tweetJSON)
    }

    /// On a database other daemons share, reads their commits first unless this daemon is current (or the request's
    /// middleware has caught up already).
    private func catchUpWithOthers() async throws {
        guard !OtherDaemonsCatchUp.isDoneForThisRequest else { return }
        let others = others.withLock { $0 }
        if !others.isCurrent { try await others.catchUp() }
    }

    /// The accounts off the public web pages (`OffWebAccountsCache`), with what the other daemons committed and
    /// every commit published before this call applied, as for a page; read from `store` when not kept.
    func accountsOffWeb(store: any ProfileStoring) async throws -> Set<Int64> {
        try await catchUpWithOthers()
        await waitUntilApplied()
        return try await caches.offWeb.accounts { try await store.webHiddenUsers() }
    }

    /// The counts of `account` (`AccountCountsCache`), with what the other daemons committed and every commit
    /// published before this call applied, as for a page; counted by `store` when not kept.
    func counts(of account: Int64, store: any FollowStoring) async throws -> AccountCounts {
        try await catchUpWithOthers()
        await waitUntilApplied()
        return try await caches.accountCounts.counts(of: account) { try await store.counts(of: account) }
    }

    /// The page as the store reads it, collapsed like caches's.
    private func storePage(_ query: TweetQuery, stores: ReadStores) async throws -> [Tweet] {
        guard query.timeline.collapsesReposts else { return try await stores.tweets.tweets(query) }
        // Read more than the page: collapsing a tweet and its reposts would otherwise leave it short.
        var wider = query
        wider.limit = Self.widerLimit(query.limit)
        return Timeline.collapsed(try await stores.tweets.tweets(wider), limit: query.limit)
    }

    /// What `reader` does not see, loading it from the store when it is not in caches.
    func hiddenAccounts(of reader: Int64, stores: ReadStores) async throws -> HiddenAccounts {
        await waitUntilApplied()
        return try await caches.hidden.value(of: reader) { try await stores.relations.hiddenAccounts(of: reader) }
    }

    /// How many tweets a collapsing page reads for `limit`.
    static func widerLimit(_ limit: Int) -> Int {
        min(limit * 2, widestRead)
    }

    /// The most rows one page reads.
    static let widestRead = 400

    /// `tweets` as `reader` sees them: its marks, and each quoted tweet as it may see it; the accounts in
    /// `alsoHiding` (the web's, off it) are hidden as a block hides them.
    func marked(_ tweets: [Tweet], for reader: Int64, alsoHiding: Set<Int64> = [], stores: ReadStores) async throws
        -> [Tweet]
    {
        let readerMarks = try await marks.marks(of: reader, store: stores.likes)
        return try await quoting(
            tweets.map(readerMarks.applied), for: reader, alsoHiding: alsoHiding, marks: readerMarks, stores: stores)
    }

    /// `tweets` with the `quoted` of each quote (and of each repost's original that is one) as `reader` may see
    /// it: the tweet with the reader's marks, or unavailable when it is deleted, its author suspended or deleted,
    /// or hidden from the reader by a block either way or a mute (`TweetVisibility.lists`, the one policy).
    /// Read afresh for every answer, never kept: what one reader may see of it is no other reader's.
    /// The accounts in `alsoHiding` (the web's, off it) are hidden as a block hides them.
    func quoting(
        _ tweets: [Tweet], for reader: Int64, alsoHiding: Set<Int64> = [], marks: ReaderMarks, stores: ReadStores
    ) async throws -> [Tweet] {
        var ids: [Int64] = []
        for tweet in tweets {
            for id in [tweet.quoteOfID, tweet.repostOf?.quoteOfID].compactMap(\.self) where !ids.contains(id) {
                ids.append(id)
            }
        }
        guard !ids.isEmpty else { return tweets }
        var hidden = try await hiddenAccounts(of: reader, stores: stores)
        hidden.blocking.formUnion(alsoHiding)
        let visibility = TweetVisibility(hidden)
        var shown: [Int64: QuotedTweet] = [:]
        for quoted in try await stores.tweets.tweets(ids: ids) where visibility.lists(quoted) {
            var seen = marks.applied(to: quoted)
            seen.quoted = nil
            shown[quoted.id] = .tweet(seen)
        }
        for id in ids where shown[id] == nil { shown[id] = .unavailable(id: id) }
        return tweets.map { tweet in
            var tweet = tweet
            if let id = tweet.quoteOfID { tweet.quoted = shown[id] }
            if var original = tweet.repostOf, let id = original.quoteOfID {
                original.quoted = shown[id]
                tweet.repostOf = original
            }
            return tweet
        }
    }

    /// A thread with the `quoted` of each of its tweets as `reader` may see it (and the reader's marks on those).
    func quoting(
        _ rows: ThreadRows, for reader: Int64, alsoHiding: Set<Int64> = [], marks: ReaderMarks, stores: ReadStores
    ) async throws -> ThreadRows {
        func tweets(_ entries: [ThreadEntry]) -> [Tweet] {
            entries.compactMap { entry -> Tweet? in
                guard case .tweet(let tweet) = entry else { return nil }
                return tweet
            }
        }
        let all = [rows.tweet] + tweets(rows.ancestors) + tweets(rows.descendants)
        guard all.contains(where: \.holdsQuote) else { return rows }
        var resolved: [Int64: Tweet] = [:]
        for tweet in try await quoting(all, for: reader, alsoHiding: alsoHiding, marks: marks, stores: stores) {
            resolved[tweet.id] = tweet
        }
        func entry(_ entry: ThreadEntry) -> ThreadEntry {
            guard case .tweet(let tweet) = entry, let shown = resolved[tweet.id] else { return entry }
            return .tweet(shown)
        }
        var shown = rows
        shown.tweet = resolved[rows.tweet.id] ?? rows.tweet
        shown.ancestors = rows.ancestors.map(entry)
        shown.descendants = rows.descendants.map(entry)
        return shown
    }
}

extension Tweet {
    /// Whether it, or a repost's original, quotes a tweet: its answer depends on the reader beyond the marks.
    var holdsQuote: Bool { quoteOfID != nil || repostOf?.quoteOfID != nil }
}

/// The stores a read may fall back on.
struct ReadStores: Sendable {
    let tweets: any TweetStoring
    let likes: any LikeStoring
    let follows: any FollowStoring
    let relations: any RelationStoring
}
