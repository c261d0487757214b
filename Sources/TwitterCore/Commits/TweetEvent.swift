/// A committed change to one tweet, its counts or a reader's marks on it: what the read model's tweet layers
/// apply and the live streams carry.
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

    /// The commit log's JSON keys, one per case, spelled as the case: written out so that `CommitEvent` can tell
    /// a tweet's event by its key.
    enum CodingKeys: String, CodingKey {
        case posted, deleted, counted, liked, unliked, bookmarked, unbookmarked
    }

    /// The author of the tweet a posting or deletion concerns; nil for the other events.
    public var authorID: Int64? {
        switch self {
        case .posted(let tweet): tweet.author.id
        case .deleted(_, let authorID, _): authorID
        case .counted, .liked, .unliked, .bookmarked, .unbookmarked: nil
        }
    }
}
