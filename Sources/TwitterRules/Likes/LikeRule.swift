import TwitterCore

/// Liking and taking a like back: the decision and its events, once for every store.
public enum LikeRule {
    /// What a like or an unlike of a tweet does, once the store has read the tweet's original and its author as
    /// the liker may see them (`TweetVisibility`).
    public struct Plan: Sendable, Equatable {
        /// The tweet liked: a repost's original.
        public var tweetID: Int64
        /// The author told of a new like (nil for oneself, and for an unlike).
        public var notification: PlannedNotification?
        /// The author whose like notification an unlike withdraws.
        public var withdrawsFrom: Int64?
    }

    /// Decides `userID`'s like (`liking`) or unlike of tweet `id`, whose original and author are `target`;
    /// -32004 when it is not there (for a like, across a block too; an unlike always goes ahead).
    public static func decide(
        _ id: Int64, by userID: Int64, liking: Bool, target: (id: Int64, author: Tweet.Author)?
    ) throws(TwitterError) -> Plan {
        guard let target else { throw TwitterError.notFound("Tweet \(id)") }
        guard liking else { return Plan(tweetID: target.id, notification: nil, withdrawsFrom: target.author.id) }
        let notifies = InteractionRule.notifies(target.author.id, actor: userID, blocked: false)
        return Plan(
            tweetID: target.id,
            notification: notifies ? PlannedNotification(recipientID: target.author.id, kind: .like) : nil,
            withdrawsFrom: nil)
    }

    /// The events of a like or an unlike that changed something, in their one order: the mark, the new counts,
    /// then the notification.
    public static func events(
        _ plan: Plan, by userID: Int64, liking: Bool, counts: TweetCounts,
        notification: (ActivityNotification, recipientID: Int64)?
    ) -> [CommitEvent] {
        var events: [CommitEvent] = [
            liking
                ? .tweet(.liked(id: plan.tweetID, userID: userID)) : .tweet(.unliked(id: plan.tweetID, userID: userID)),
            .tweet(.counted(id: plan.tweetID, counts)),
        ]
        if let (notification, recipient) = notification {
            events.append(.account(.notified(notification, recipientID: recipient)))
        }
        return events
    }
}
