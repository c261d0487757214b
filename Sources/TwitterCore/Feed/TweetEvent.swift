/// Something that happened to the feed, as subscribers see it.
public enum TweetEvent: Sendable, Equatable {
    /// A tweet was posted.
    case posted(Tweet)
    /// A tweet was deleted.
    case deleted(id: Int64, authorID: Int64)

    /// The author the event concerns, for per-author subscriptions.
    public var authorID: Int64 {
        switch self {
        case .posted(let tweet): tweet.author.id
        case .deleted(_, let authorID): authorID
        }
    }
}
