import TwitterCore

/// The read model's layers (see `FeedReadModel`), held together so that they can be replaced together.
final class ReadModelCaches: Sendable {
    /// The newest tweets of everyone, for the public timeline's latest pages.
    let recentTweets: RecentTweetsCache
    /// Sized for the tweets of many readers' home pages, not only the public timeline's newest.
    let tweetJSON = TweetJSONCache(capacity: 16_384)
    /// Whole pages of the public timeline.
    let publicPages = FeedPageCache()
    /// Home and user pages: about 9 KB each, so 1,024 of them stay under 10 MB.
    let homeAndUserPages = FeedPageCache(capacity: 1024)
    /// What each recent reader liked, reposted and bookmarked.
    let marks = ReaderMarksCache.readerMarks()
    /// Each recently read account's newest tweets, which home and user pages are merged from.
    let authorTimelines = AuthorTimelineCache()
    /// Whom each recent reader follows.
    let following = KeyedCommitCache<RelationEvent, Set<Int64>>(
        capacity: 10_000, subject: \.relationEvent,
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
    let hidden = KeyedCommitCache<RelationEvent, HiddenAccounts>(
        capacity: 10_000, subject: \.relationEvent, keys: HiddenAccounts.readers(changedBy:),
        update: { hidden, event, reader in hidden.apply(event, reader: reader) })

    /// The accounts off the public web pages, which every web page hides.
    let offWeb = OffWebAccountsCache()
    /// Each recently shown account's counts, for its public profile page.
    let accountCounts = AccountCountsCache()

    /// Empty layers; the public timeline keeps `capacity` tweets.
    init(capacity: Int) {
        recentTweets = RecentTweetsCache(capacity: capacity)
    }

    /// Applies a commit's events to every layer. `recentTweets` goes last: it moves the version on, and a reader
    /// that sees the new version must find every other layer changed already, or it could keep a page merged
    /// from old author timelines under the new version.
    func apply(_ events: [CommitEvent]) {
        marks.apply(events)
        authorTimelines.apply(events)
        following.apply(events)
        hidden.apply(events)
        offWeb.apply(events)
        accountCounts.apply(events)
        recentTweets.apply(events)
    }
}
