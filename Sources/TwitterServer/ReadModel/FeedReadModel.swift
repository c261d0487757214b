import TwitterCore

/// The feed as the server holds it in memory, kept current by commits: one place, one invalidation rule.
///
/// Every commit the store reports (and later, with a shared database, every commit another daemon made) goes
/// through `committed`, which moves the version on and publishes the events to the live streams. The layers:
///
/// 1. `NewestTweets`: the newest tweets, which answer the whole feed's latest pages exactly;
/// 2. `TweetJSONCache`: each recent tweet's JSON, used only for an equal tweet, so it needs no invalidation;
/// 3. `FeedPageMemo`: whole answers, kept only for the version they were read at.
///
/// What comes next plugs in here: per-user home timelines as more keyed layers under the same rule, and fields
/// that depend on the reader kept out of the shared bytes.
public final class FeedReadModel: TweetCommitObserving {
    /// The live streams: `tweets.subscribe` subscriptions.
    public let hub: TweetHub
    let newest: NewestTweets
    let json = TweetJSONCache()
    let pages = FeedPageMemo()

    /// Creates an empty model that publishes to `hub`; it fills from the store on the first read.
    public init(hub: TweetHub, capacity: Int = 512) {
        self.hub = hub
        newest = NewestTweets(capacity: capacity)
    }

    /// Applies a commit to memory, then to the live streams.
    public func committed(_ events: [TweetEvent]) {
        guard !events.isEmpty else { return }
        newest.apply(events)
        hub.publish(events)
    }

    /// The answer to `query` from memory, or nil when it needs the store (an author's tweets, an old page, or
    /// nothing loaded yet).
    func pageInMemory(_ query: TweetQuery) -> FeedPage? {
        guard query.authorID == nil else { return nil }
        if let kept = pages.page(for: query, at: newest.version) { return FeedPage(json: kept) }
        guard let (tweets, version) = newest.page(sinceID: query.sinceID, maxID: query.maxID, limit: query.limit)
        else { return nil }
        let answer = FeedPage(tweets, json: json)
        pages.keep(answer.json, for: query, at: version)
        return answer
    }

    /// The answer to `query`, from memory when it can be, filling memory from `store` on the first whole-feed read.
    func page(_ query: TweetQuery, store: any TweetStoring) async throws -> FeedPage {
        if let page = pageInMemory(query) { return page }
        if query.authorID == nil, !newest.isLoaded {
            let version = newest.version
            newest.load(try await store.tweets(TweetQuery(limit: newest.capacity)), readAt: version)
            if let page = pageInMemory(query) { return page }
        }
        return FeedPage(try await store.tweets(query), json: json)
    }
}
