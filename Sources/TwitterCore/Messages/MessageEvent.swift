/// A committed change to direct messages that live connections must hear of: the messages' own event type,
/// apart from a commit's (`CommitEvent`).
public enum MessageEvent: Sendable, Equatable, Codable {
    /// `message` was sent; `recipientIDs` are the members it reaches (the sender among them), as `MessageRule`
    /// decided at its commit.
    case sent(StoredMessage, recipientIDs: [Int64])

    /// The accounts this event is for.
    public var recipientIDs: [Int64] {
        switch self {
        case .sent(_, let recipients): recipients
        }
    }
}

/// Hears of message commits in commit order: this daemon's and, on a shared database, every other daemon's.
public protocol MessageCommitObserving: Sendable {
    /// Committed `events`; `elsewhere` when another daemon on the same database made them.
    func committed(_ events: [MessageEvent], elsewhere: Bool)
}
