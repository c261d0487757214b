import TwitterCore

/// What every interaction between two accounts obeys, whichever store keeps them: none across a block (either
/// way), and a notification to the other side unless it is oneself or a block stands between them.
public enum InteractionRule {
    /// The refusal of `actor`'s interaction with `other`'s account or tweet when a block stands between them
    /// (`blocker` is who blocks whom, if either does); nil when it may go ahead, and always for one's own.
    public static func refusal(actor: Int64, other: Int64, blocker: Int64?) -> TwitterError? {
        guard actor != other, let blocker else { return nil }
        return TwitterError(
            .forbidden, blocker == actor ? "You block this account; unblock it first" : "This account blocks you")
    }

    /// Whether `actor`'s action notifies `recipient`: never oneself, never across a block (`blocked`).
    public static func notifies(_ recipient: Int64, actor: Int64, blocked: Bool) -> Bool {
        recipient != actor && !blocked
    }
}

// @MemberwiseInit
/// A notification a write makes, before the store gives it an id: who hears of what.
public struct PlannedNotification: Sendable, Equatable {
    /// The account told.
    public var recipientID: Int64
    /// What happened.
    public var kind: ActivityNotification.Kind
}
