import Foundation
import TwitterCore

// @MemberwiseInit
/// What a store reads, inside its transaction, for a post's decision.
public struct PostFacts: Sendable {
    /// The author's earlier tweet with the same idempotency key within `PostDraft.idempotencyWindow`.
    public var earlier: Tweet?
    /// For a reply: the tweet answered (a repost's original) and its author, as the author of the reply may see
    /// it (`TweetVisibility`: across a block it is not there); nil when it is not there.
    public var parent: (id: Int64, author: Tweet.Author)?
    /// The accounts the text mentions that exist, once each, as they spell their names.
    public var mentioned: [Tweet.Author] = []
    /// Among the parent's author, the quoted tweet's author and the mentioned, the accounts a block stands between
    /// with the author.
    public var blockedRecipients: Set<Int64> = []
    /// For a quote: the tweet quoted (a repost's original) and its author; nil when it is missing, deleted or its
    /// author suspended. A block hides it only through `quotedBlocker`, which the decision reads.
    public var quoted: (id: Int64, author: Tweet.Author)?
    /// For a quote: who blocks whom between the author and the quoted tweet's author, if either does.
    public var quotedBlocker: Int64?
}

/// What a post writes, once decided.
public struct PostPlan: Sendable, Equatable {
    /// The tweet answered, as stored: a repost's original.
    public var inReplyToID: Int64?
    /// The idempotency key was used before the window: the old tweet lets go of it first.
    public var releasesIdempotencyKey: Bool
    /// The mentioned accounts to record, once each.
    public var mentionedIDs: [Int64]
    /// The entities as stored with the tweet: the mentions of accounts that exist, spelt as they spell them.
    public var entities: TweetEntities
    /// The parent whose `repliesCount` grows by one.
    public var countedParentID: Int64?
    /// The tweet quoted, as stored (a repost's original), whose `quotesCount` grows by one.
    public var quoteOfID: Int64?
    /// Who hears of the post, in the one order every store keeps: the author answered first, then the author
    /// quoted, then each account mentioned; nobody twice, nobody across a block, never the author.
    public var notifications: [PlannedNotification]
}

/// Posting a tweet or a reply: the decision and its events, once for every store.
public enum PostRule {
    /// The outcome: the earlier tweet with the same key, or what to write.
    public enum Decision: Sendable {
        /// Posted already within the window: answered again, nothing written.
        case earlier(Tweet)
        /// A new tweet.
        case write(PostPlan)
    }

    /// Decides `draft`, whose text holds `found`, on `facts`; throws -32004 for a reply to, or a quote of, a
    /// tweet that is not there for its author (a quote across a block, either way, is as if the tweet were
    /// missing, as a reply is, so the refusal tells nothing of the blocker's tweets), and -32602 for empty text
    /// that quotes nothing.
    public static func decide(_ draft: PostDraft, found: TweetEntities, facts: PostFacts) throws(TwitterError)
        -> Decision
    {
        if let earlier = facts.earlier { return .earlier(earlier) }
        guard !draft.text.isEmpty || draft.quoteOfID != nil else {
            throw TwitterError(.invalidParams, "Tweet text can not be empty", fields: ["text": "can not be empty"])
        }
        var parent: Tweet.Author?
        if let answered = draft.inReplyToID {
            guard let target = facts.parent else { throw TwitterError.notFound("Tweet \(answered)") }
            parent = target.author
        }
        var quoted: Tweet.Author?
        if let quoteOf = draft.quoteOfID {
            guard let target = facts.quoted, facts.quotedBlocker == nil else {
                throw TwitterError.notFound("Tweet \(quoteOf)")
            }
            quoted = target.author
        }
        var notifications: [PlannedNotification] = []
        func notify(_ recipient: Int64, _ kind: ActivityNotification.Kind) {
            guard
                InteractionRule.notifies(
                    recipient, actor: draft.authorID, blocked: facts.blockedRecipients.contains(recipient)),
                !notifications.contains(where: { $0.recipientID == recipient })
            else { return }
            notifications.append(PlannedNotification(recipientID: recipient, kind: kind))
        }
        // One notification per account: the author answered hears of a reply, not also of its mention.
        if let parent { notify(parent.id, .reply) }
        if let quoted { notify(quoted.id, .quote) }
        for account in facts.mentioned { notify(account.id, .mention) }
        return .write(
            PostPlan(
                inReplyToID: facts.parent?.id, releasesIdempotencyKey: draft.idempotencyKey != nil,
                mentionedIDs: facts.mentioned.map(\.id),
                entities: TweetEntities(found: found, mentioned: facts.mentioned.map(\.username)),
                countedParentID: facts.parent?.id, quoteOfID: draft.quoteOfID == nil ? nil : facts.quoted?.id,
                notifications: notifications))
    }

    /// The accounts whose blocks with the author a store must read for `draft`: the parent's author, the quoted
    /// tweet's author and the mentioned, once each (none for a plain post without mentions: no read at all).
    public static func recipientCandidates(
        parentAuthor: Int64?, quotedAuthor: Int64? = nil, mentioned: [Tweet.Author]
    ) -> [Int64] {
        var candidates: [Int64] = []
        if let parentAuthor { candidates.append(parentAuthor) }
        if let quotedAuthor, !candidates.contains(quotedAuthor) { candidates.append(quotedAuthor) }
        for account in mentioned where !candidates.contains(account.id) { candidates.append(account.id) }
        return candidates
    }

    /// A post's events in their one order: the tweet, the parent's new counts, the quoted tweet's, then the
    /// notifications as planned.
    public static func events(
        posted tweet: Tweet, parentCounts: TweetCounts?, quotedCounts: TweetCounts? = nil,
        notifications: [(ActivityNotification, recipientID: Int64)]
    ) -> [CommitEvent] {
        var events: [CommitEvent] = [.tweet(.posted(tweet))]
        if let parentID = tweet.inReplyToID, let parentCounts {
            events.append(.tweet(.counted(id: parentID, parentCounts)))
        }
        if let quotedID = tweet.quoteOfID, let quotedCounts {
            events.append(.tweet(.counted(id: quotedID, quotedCounts)))
        }
        for (notification, recipient) in notifications {
            events.append(.account(.notified(notification, recipientID: recipient)))
        }
        return events
    }
}
