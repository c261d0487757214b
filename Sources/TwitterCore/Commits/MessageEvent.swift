/// A committed change to direct messages that live connections must hear of: a commit's event
/// (`CommitEvent.message`), carried by the same hub, log and feed as every other.
public enum MessageEvent: Sendable, Equatable, Codable {
    /// `message` was sent; `recipientIDs` are the members it reaches (the sender among them), as `MessageRule`
    /// decided at its commit. Its text is sealed (`MessageSealing`), so the commit log never holds it in clear.
    case sent(StoredMessage, recipientIDs: [Int64])

    /// The commit log's JSON keys, one per case, spelled as the case: written out so that `CommitEvent` can tell
    /// a message's event by its key.
    enum CodingKeys: String, CodingKey {
        case sent
    }

    /// The accounts this event is for.
    public var recipientIDs: [Int64] {
        switch self {
        case .sent(_, let recipients): recipients
        }
    }
}
