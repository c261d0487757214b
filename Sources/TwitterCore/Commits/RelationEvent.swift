/// A committed change between two accounts (a follow, a mute, a block) or between a list and a member: what the
/// read model's follow sets and hidden accounts apply, and what home and list streams follow.
public enum RelationEvent: Sendable, Equatable, Codable {
    /// `followerID` began to follow `followeeID`.
    case followed(followerID: Int64, followeeID: Int64)
    /// `followerID` stopped following `followeeID`.
    case unfollowed(followerID: Int64, followeeID: Int64)
    /// `muterID` muted `mutedID`.
    case muted(muterID: Int64, mutedID: Int64)
    /// `muterID` ended its mute of `mutedID`.
    case unmuted(muterID: Int64, mutedID: Int64)
    /// `blockerID` blocked `blockedID` (the follows between them are ended by their own events first).
    case blocked(blockerID: Int64, blockedID: Int64)
    /// `blockerID` ended its block of `blockedID`.
    case unblocked(blockerID: Int64, blockedID: Int64)
    /// `memberID` was added to list `listID`: nobody is told, but the list's live streams show its tweets from now.
    case listed(listID: Int64, memberID: Int64)
    /// `memberID` left list `listID` (taken off, blocked the owner or was blocked, or the list was deleted).
    case unlisted(listID: Int64, memberID: Int64)
    /// List `listID` of `ownerID` was made private or public: its live streams to others stop or go on from here.
    case listPrivacyChanged(listID: Int64, ownerID: Int64, isPrivate: Bool)

    /// The commit log's JSON keys, one per case, spelled as the case: written out so that `CommitEvent` can tell
    /// a relation's event by its key.
    enum CodingKeys: String, CodingKey {
        case followed, unfollowed, muted, unmuted, blocked, unblocked, listed, unlisted, listPrivacyChanged
    }

    /// Whether someone must no longer see what they could before: a block, or a list made private
    /// (`CommitEvent.withdrawsAccess`).
    public var withdrawsAccess: Bool {
        switch self {
        case .blocked: true
        case .listPrivacyChanged(_, _, let isPrivate): isPrivate
        case .followed, .unfollowed, .muted, .unmuted, .unblocked, .listed, .unlisted: false
        }
    }
}
