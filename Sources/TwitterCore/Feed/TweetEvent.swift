/// A committed change that readers of tweets must see: what the read model applies and the live streams carry.
public enum TweetEvent: Sendable, Equatable, Codable {
    /// A tweet, reply or repost was posted.
    case posted(Tweet)
    /// A tweet was deleted; `repostOf` is the original's id when it was a repost.
    case deleted(id: Int64, authorID: Int64, repostOf: Int64?)
    /// A tweet's counts changed to `counts`.
    case counted(id: Int64, TweetCounts)
    /// `userID` liked tweet `id`.
    case liked(id: Int64, userID: Int64)
    /// `userID` took back a like of tweet `id`.
    case unliked(id: Int64, userID: Int64)
    /// `userID` bookmarked tweet `id`: known to that reader's marks alone, never streamed to anyone.
    case bookmarked(id: Int64, userID: Int64)
    /// `userID` took back its bookmark of tweet `id`.
    case unbookmarked(id: Int64, userID: Int64)
    /// `followerID` began to follow `followeeID`.
    case followed(followerID: Int64, followeeID: Int64)
    /// `followerID` stopped following `followeeID`.
    case unfollowed(followerID: Int64, followeeID: Int64)
    /// `memberID` was added to list `listID`: nobody is told, but the list's live streams show its tweets from now.
    case listed(listID: Int64, memberID: Int64)
    /// `memberID` left list `listID` (taken off, blocked the owner or was blocked, or the list was deleted).
    case unlisted(listID: Int64, memberID: Int64)
    /// List `listID` of `ownerID` was made private or public: its live streams to others stop or go on from here.
    case listPrivacyChanged(listID: Int64, ownerID: Int64, isPrivate: Bool)
    /// `recipientID` has a new notification.
    case notified(ActivityNotification, recipientID: Int64)
    /// `muterID` muted `mutedID`.
    case muted(muterID: Int64, mutedID: Int64)
    /// `muterID` ended its mute of `mutedID`.
    case unmuted(muterID: Int64, mutedID: Int64)
    /// `blockerID` blocked `blockedID` (the follows between them are ended by their own events first).
    case blocked(blockerID: Int64, blockedID: Int64)
    /// `blockerID` ended its block of `blockedID`.
    case unblocked(blockerID: Int64, blockedID: Int64)
    /// `userID` was suspended, unsuspended or deleted: its content and its part in every count appeared or
    /// vanished at once, so whatever holds tweets or counts in memory starts again from the store.
    case accountChanged(userID: Int64)
    /// Another daemon on the same database revoked a credential: its connections here are cut too. Never
    /// delivered for this daemon's own revocations, which it has acted on already.
    case revoked(Revocation)

    /// Whether an account's content appeared or vanished as a whole (`accountChanged`).
    public var changesStanding: Bool {
        if case .accountChanged = self { true } else { false }
    }

    /// Whether someone must no longer see or do what they could before (a revocation, a block, a suspension or
    /// deletion, a list made private): on a database several daemons share, such a commit is answered only once
    /// every daemon serving from memory has applied it.
    public var withdrawsAccess: Bool {
        switch self {
        case .revoked, .blocked, .accountChanged: true
        case .listPrivacyChanged(_, _, let isPrivate): isPrivate
        default: false
        }
    }

    /// The author of the tweet a posting or deletion concerns; nil for the other events.
    public var authorID: Int64? {
        switch self {
        case .posted(let tweet): tweet.author.id
        case .deleted(_, let authorID, _): authorID
        default: nil
        }
    }
}
