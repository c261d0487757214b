/// Bookmarks: the tweets a reader keeps for later, known to that reader alone. Each change is reported to the
/// store's observer as `TweetEvent.bookmarked` or `.unbookmarked`, which only that reader's marks apply; a
/// deleted tweet's bookmarks go with it.
public protocol BookmarkStoring: Sendable {
    /// `userID` bookmarks tweet `id` (the original when `id` is a repost); true when it was not bookmarked yet.
    /// `.notFound` when there is no such tweet, or a block either way stands between them.
    func bookmark(_ id: Int64, by userID: Int64) async throws -> Bool
    /// Takes the bookmark of tweet `id` (a repost's original) back; false when there was none.
    func unbookmark(_ id: Int64, by userID: Int64) async throws -> Bool
    /// `userID`'s bookmarked tweets, newest bookmark first, leaving out the tweets of `page.hiding`; the tweets of
    /// suspended accounts and deleted tweets are never there.
    func bookmarks(of userID: Int64, page: PageRequest) async throws -> BookmarkPage
}

// @MemberwiseInit
/// One page of a reader's bookmarks.
public struct BookmarkPage: Sendable, Equatable {
    /// The tweets, newest bookmark first.
    public var tweets: [Tweet]
    /// The position to read the next page from; nil on the last page.
    public var next: Int64?
}
