/// A committed change concerning one account as a whole: a notification for it, a change of its standing, a
/// credential of it revoked, or its profile put on the public web pages or taken off them.
public enum AccountEvent: Sendable, Equatable, Codable {
    /// `recipientID` has a new notification.
    case notified(ActivityNotification, recipientID: Int64)
    /// `userID` was suspended, unsuspended or deleted: its content and its part in every count appeared or
    /// vanished at once, so whatever caches tweets or counts starts again from the store.
    case standingChanged(userID: Int64)
    /// Another daemon on the same database revoked a credential: its connections here are cut too. Never
    /// delivered for this daemon's own revocations, which it has acted on already.
    case revoked(Revocation)
    /// `userID` put its profile and tweets on the public web pages (`visible`) or took them off
    /// (`profile.update {webVisible}`): the read model's set of the accounts off the web follows it.
    case webVisibilityChanged(userID: Int64, visible: Bool)

    /// The commit log's JSON keys, one per case: written out so that `CommitEvent` can tell an account's event
    /// by its key, and so that a change of standing keeps the key it was logged under before it had its name.
    enum CodingKeys: String, CodingKey {
        case notified
        case standingChanged = "accountChanged"
        case revoked
        case webVisibilityChanged
    }

    /// Whether an account's content appeared or vanished as a whole (`standingChanged`).
    public var changesStanding: Bool {
        if case .standingChanged = self { true } else { false }
    }

    /// Whether someone must no longer see or do what they could before: a revocation, a suspension or deletion,
    /// an account taken off the web (`CommitEvent.withdrawsAccess`).
    public var withdrawsAccess: Bool {
        switch self {
        case .revoked, .standingChanged: true
        case .webVisibilityChanged(_, let visible): !visible
        case .notified: false
        }
    }
}
