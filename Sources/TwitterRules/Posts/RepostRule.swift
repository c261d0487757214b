import TwitterCore

// @MemberwiseInit
/// What a store reads, inside its transaction, for a repost's decision.
public struct RepostFacts: Sendable {
    /// The original (the tweet itself, or the original of a repost) and its author, as the reposter may see it
    /// (`TweetVisibility`: across a block it is not there); nil when it is not there.
    public var original: (id: Int64, author: Tweet.Author)?
    /// The reposter's existing repost of the original.
    public var existing: Tweet?
}

/// Reposting: the decision and its events, once for every store.
public enum RepostRule {
    /// The outcome: the repost made already, or what to write.
    public enum Decision: Sendable, Equatable {
        /// Reposted already: answered again, nothing written.
        case existing(Tweet)
        /// A new repost of `originalID`, counted there; its author is told unless it is the reposter.
        case write(originalID: Int64, notification: PlannedNotification?)
    }

    /// Decides `userID`'s repost of tweet `id` on `facts`; -32004 when it is not there for the reposter.
    public static func decide(_ id: Int64, by userID: Int64, facts: RepostFacts) throws(TwitterError) -> Decision {
        guard let original = facts.original else { throw TwitterError.notFound("Tweet \(id)") }
        if let existing = facts.existing { return .existing(existing) }
        // A tweet across a block is not there for the reposter, so only oneself is left out.
        let notifies = InteractionRule.notifies(original.author.id, actor: userID, blocked: false)
        return .write(
            originalID: original.id,
            notification: notifies ? PlannedNotification(recipientID: original.author.id, kind: .repost) : nil)
    }

    /// A repost's events in their one order: the repost (readers place it), the original's new counts (then
    /// update every copy of it), the notification.
    public static func events(
        reposted repost: Tweet, originalID: Int64, counts: TweetCounts?,
        notification: (ActivityNotification, recipientID: Int64)?
    ) -> [CommitEvent] {
        var events: [CommitEvent] = [.tweet(.posted(repost))]
        if let counts { events.append(.tweet(.counted(id: originalID, counts))) }
        if let (notification, recipient) = notification {
            events.append(.account(.notified(notification, recipientID: recipient)))
        }
        return events
    }
}
