import TwitterCore

/// One of a tweet's counters, as the rules name it; each store maps it to its column.
public enum TweetCounter: Sendable, Equatable {
    /// `repliesCount`.
    case replies
    /// `repostsCount`.
    case reposts
    /// `likesCount`.
    case likes
    /// `quotesCount`.
    case quotes
}

// @MemberwiseInit
/// What a store reads, inside its transaction, to delete a tweet.
public struct DeletionFacts: Sendable {
    /// The tweet deleted.
    public var id: Int64
    /// Its author.
    public var authorID: Int64
    /// The original, when it is a repost.
    public var repostOf: Int64?
    /// The tweet it answers, when it is a reply.
    public var inReplyTo: Int64?
    /// Its reposts, by id, with their authors: they go with it.
    public var reposts: [(id: Int64, authorID: Int64)]
    /// Whether replies (or their tombstones) answer it; read only when `DeletionRule.mayKeepItsPlace` says so.
    public var hasReplies: Bool
    /// Whether the author is suspended, its replies and reposts out of the counters already.
    public var authorWithdrawn: Bool
    /// The tweet it quotes, when it is a quote: its `quotesCount` loses it.
    public var quoteOf: Int64?
}

/// What deleting a tweet writes, once decided.
public struct DeletionPlan: Sendable, Equatable {
    /// A tweet in a conversation keeps its place there: a tombstone with the tweet it answered.
    public var tombstone: (id: Int64, inReplyToID: Int64?)?
    /// The counters that lose the tweet, in order.
    public var counters: [(tweetID: Int64, counter: TweetCounter)]

    /// Equal when they keep the same place and move the same counters in the same order.
    public static func == (lhs: DeletionPlan, rhs: DeletionPlan) -> Bool {
        lhs.tombstone?.id == rhs.tombstone?.id && lhs.tombstone?.inReplyToID == rhs.tombstone?.inReplyToID
            && lhs.counters.elementsEqual(rhs.counters) { $0.tweetID == $1.tweetID && $0.counter == $1.counter }
    }
}

/// Deleting a tweet, whoever deletes it (its author, a moderator, an unrepost), once for every store: both
/// leave the same conversations and counters behind.
public enum DeletionRule {
    /// -32003 unless `requester` wrote the tweet: only its author deletes a tweet (admins go through
    /// moderation, which does not ask).
    public static func requireAuthor(_ requester: Int64, of facts: (id: Int64, authorID: Int64)) throws(TwitterError) {
        guard requester == facts.authorID else {
            throw TwitterError(.forbidden, "Tweet \(facts.id) is not yours to delete")
        }
    }

    /// Whether the tweet may keep its place in a conversation (and the store must read `hasReplies`): a repost
    /// never does.
    public static func mayKeepItsPlace(repostOf: Int64?) -> Bool { repostOf == nil }

    /// The plan: a tombstone for a reply or a tweet with replies, and the counters of the tweet answered, of the
    /// original reposted and of the tweet quoted, unless the suspended author's part is out of them already.
    public static func plan(_ facts: DeletionFacts) -> DeletionPlan {
        var plan = DeletionPlan(tombstone: nil, counters: [])
        if mayKeepItsPlace(repostOf: facts.repostOf), facts.inReplyTo != nil || facts.hasReplies {
            plan.tombstone = (facts.id, facts.inReplyTo)
        }
        guard !facts.authorWithdrawn else { return plan }
        if let parent = facts.inReplyTo { plan.counters.append((parent, .replies)) }
        if let original = facts.repostOf { plan.counters.append((original, .reposts)) }
        if let quoted = facts.quoteOf { plan.counters.append((quoted, .quotes)) }
        return plan
    }

    /// The events in their one order: its reposts' deletions, its own, then the counts that changed.
    public static func events(_ facts: DeletionFacts, counted: [(id: Int64, counts: TweetCounts)]) -> [CommitEvent] {
        var events: [CommitEvent] = facts.reposts.map {
            .tweet(.deleted(id: $0.id, authorID: $0.authorID, repostOf: facts.id))
        }
        events.append(.tweet(.deleted(id: facts.id, authorID: facts.authorID, repostOf: facts.repostOf)))
        for (id, counts) in counted { events.append(.tweet(.counted(id: id, counts))) }
        return events
    }
}
