import TwitterCore

/// Follows and blocks between two accounts, once for every store.
public enum RelationRule {
    /// What a new follow does once written: the followee is told (never oneself; a follow across a block is
    /// refused before, by `followRefusal`).
    public static func followNotification(followee: Int64, follower: Int64) -> PlannedNotification? {
        InteractionRule.notifies(followee, actor: follower, blocked: false)
            ? PlannedNotification(recipientID: followee, kind: .follow) : nil
    }

    /// -32003 when a block stands between the two (`blocker` is who blocks whom, if either does).
    public static func followRefusal(followee: Int64, follower: Int64, blocker: Int64?) -> TwitterError? {
        InteractionRule.refusal(actor: follower, other: followee, blocker: blocker)
    }

    /// A new follow's events: the follow, then the notification.
    public static func followEvents(
        follower: Int64, followee: Int64, notification: (ActivityNotification, recipientID: Int64)?
    ) -> [CommitEvent] {
        var events: [CommitEvent] = [.relation(.followed(followerID: follower, followeeID: followee))]
        if let (notification, recipient) = notification {
            events.append(.account(.notified(notification, recipientID: recipient)))
        }
        return events
    }

    /// The follows a new block ends, in their one order: the blocker's of the blocked, then the blocked's of the
    /// blocker. Each one that existed is reported as an unfollow, with its notification withdrawn.
    public static func followsEndedByBlock(blocker: Int64, blocked: Int64) -> [(followerID: Int64, followeeID: Int64)] {
        [(blocker, blocked), (blocked, blocker)]
    }

    /// A new block's events: the unfollows of the follows it ended, then the block.
    public static func blockEvents(blocker: Int64, blocked: Int64, unfollowed: [CommitEvent]) -> [CommitEvent] {
        unfollowed + [.relation(.blocked(blockerID: blocker, blockedID: blocked))]
    }

    /// A change between two accounts that moves nothing else: a mute, an unmute, an unblock (the follows a block
    /// ended are not restored).
    public enum PlainChange: Sendable {
        case mute
        case unmute
        case unblock
    }

    /// What `owner`'s plain change of its relation to `other` reports: its one event when the row changed, nothing
    /// when it did not (muting the muted, unblocking the unblocked), so every daemon's read model moves once.
    public static func outcome(_ change: PlainChange, by owner: Int64, of other: Int64, changed: Bool) -> (
        Bool, [CommitEvent]
    ) {
        guard changed else { return (false, []) }
        return switch change {
        case .mute: (true, [.relation(.muted(muterID: owner, mutedID: other))])
        case .unmute: (true, [.relation(.unmuted(muterID: owner, mutedID: other))])
        case .unblock: (true, [.relation(.unblocked(blockerID: owner, blockedID: other))])
        }
    }
}
