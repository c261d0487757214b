/// Whose tweets a page or a live stream shows.
public enum Timeline: Sendable, Hashable {
    /// Everyone's: the public timeline.
    case everyone
    /// One account's tweets and reposts.
    case author(Int64)
    /// The home timeline of an account: its own tweets and reposts and those of everyone it follows.
    case home(Int64)
    /// The tweets carrying one hashtag, folded as `EntityScanner.tagKey` folds it.
    case tag(String)
    /// The tweets and reposts of a list's members.
    case list(Int64)
}

/// Decides which events a live stream of one timeline carries, following the follow graph as it changes.
///
/// A home stream learns whom its owner follows from the follow events in the same stream, so a follow
/// committed after the stream began lets the followed account's next posts through, in commit order; a list
/// stream follows its list's membership events the same way.
public struct TimelineFilter: Sendable, Equatable {
    /// The timeline streamed.
    public let timeline: Timeline
    /// For a home stream: the owner and the accounts the owner follows; for a list stream: the members.
    private(set) var homeAuthors: Set<Int64>

    /// A filter for `timeline`; for a home timeline, `following` is whom the owner follows now; for a list, its
    /// members now.
    public init(_ timeline: Timeline, following: Set<Int64> = []) {
        self.timeline = timeline
        switch timeline {
        case .home(let owner): homeAuthors = following.union([owner])
        case .list: homeAuthors = following
        case .everyone, .author, .tag: homeAuthors = []
        }
    }

    /// Whether some stream's filter looks at `event`: postings, deletions, follows and list changes; not likes,
    /// counts or what concerns an account alone.
    public static func mayConcern(_ event: CommitEvent) -> Bool {
        switch event {
        case .tweet(.posted), .tweet(.deleted): true
        case .tweet: false
        case .relation(.followed), .relation(.unfollowed), .relation(.listed), .relation(.unlisted),
            .relation(.listPrivacyChanged):
            true
        case .relation: false
        case .account, .message: false
        }
    }

    /// Whether the stream carries `event`; follow events of a home stream's owner update whom it shows, a list's
    /// membership events whom a list stream shows.
    public mutating func admits(_ event: CommitEvent) -> Bool {
        switch event {
        case .tweet(let event): admits(event)
        case .relation(let event): admits(event)
        case .account, .message: false
        }
    }

    /// Whether the stream carries a posting or deletion: by its author, or for a tag stream by its tags.
    private func admits(_ event: TweetEvent) -> Bool {
        guard let author = event.authorID else { return false }
        switch timeline {
        case .everyone: return true
        case .author(let id): return author == id
        case .home, .list: return homeAuthors.contains(author)
        case .tag(let key):
            // A deletion does not say its tags; a tag stream carries postings only.
            guard case .posted(let tweet) = event else { return false }
            return tweet.entities.hashtags.contains { EntityScanner.tagKey($0.tag) == key }
        }
    }

    /// Follows whom a home stream shows, a list's members whom a list stream shows; passes on a list's change of
    /// privacy to its stream.
    private mutating func admits(_ event: RelationEvent) -> Bool {
        switch event {
        case .followed(let follower, let followee):
            if case .home(let owner) = timeline, follower == owner { homeAuthors.insert(followee) }
            return false
        case .unfollowed(let follower, let followee):
            if case .home(let owner) = timeline, follower == owner, followee != owner { homeAuthors.remove(followee) }
            return false
        case .listed(let listID, let memberID):
            if case .list(listID) = timeline { homeAuthors.insert(memberID) }
            return false
        case .unlisted(let listID, let memberID):
            if case .list(listID) = timeline { homeAuthors.remove(memberID) }
            return false
        case .listPrivacyChanged(let listID, _, _):
            // Passed on: the stream's forwarder knows its reader, and whether the list is still theirs to read.
            if case .list(listID) = timeline { return true }
            return false
        case .muted, .unmuted, .blocked, .unblocked:
            return false
        }
    }
}

extension Timeline {
    /// Whether a page shows each original once: home and user timelines do, so a tweet and its reposts, or
    /// several reposts of it, do not crowd one page; the public timeline (`tweets.fetch`) shows every tweet.
    public var collapsesReposts: Bool { self != .everyone }

    /// `tweets`, newest first, keeping only the newest appearance of each original, at most `limit` of them.
    public static func collapsed(_ tweets: [Tweet], limit: Int) -> [Tweet] {
        var shown: Set<Int64> = []
        var page: [Tweet] = []
        for tweet in tweets where page.count < limit {
            if shown.insert(tweet.shownID).inserted { page.append(tweet) }
        }
        return page
    }
}
