import TwitterCore

/// The read model's layers (see `FeedReadModel`), held together so that they can be replaced together.
final class ReadModelCaches: Sendable {
    let newest: RecentTweetsCache
    /// Sized for the tweets of many readers' home pages, not only the public timeline's newest.
    let json = TweetJSONCache(capacity: 16_384)
    let pages = FeedPageCache()
    /// Home and user pages: about 9 KB each, so 1,024 of them stay under 10 MB.
    let timelinePages = FeedPageCache(capacity: 1024)
    let marks = ReaderMarksCache.readerMarks()
    let windows = AuthorTimelineCache()
    /// Whom each recent reader follows.
    let following = KeyedCommitCache<Set<Int64>>(
        capacity: 10_000,
        keys: { event in
            switch event {
            case .followed(let follower, _), .unfollowed(let follower, _): [follower]
            default: []
            }
        },
        update: { followees, event, _ in
            switch event {
            case .followed(_, let followee): followees.insert(followee)
            case .unfollowed(_, let followee): followees.remove(followee)
            default: break
            }
        })

    /// The trending tags of the last few seconds.
    let trending = TrendingCache()

    /// What each recent reader does not see.
    let hidden = KeyedCommitCache<HiddenAccounts>(
        capacity: 10_000, keys: HiddenAccounts.readers(changedBy:),
        update: { hidden, event, reader in hidden.apply(event, reader: reader) })

    /// Empty layers; the public timeline keeps `capacity` tweets.
    init(capacity: Int) {
        newest = RecentTweetsCache(capacity: capacity)
    }

    /// Applies committed events to every layer. `newest` goes last: it moves the version on, and a reader
    /// that sees the new version must find every other layer changed already, or it could keep a page merged
    /// from old windows under the new version.
    func apply(_ events: [TweetEvent]) {
        marks.apply(events)
        windows.apply(events)
        following.apply(events)
        hidden.apply(events)
        newest.apply(events)
    }
}
