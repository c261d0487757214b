/// Pinned tweets: each account may pin one of its own tweets (not a repost) to the top of its profile. A pinned
/// tweet that is deleted is pinned no more; so is every pin of a deleted account.
public protocol PinStoring: Sendable {
    /// Pins tweet `id` for `userID`, in place of any pinned before. `.notFound` when there is no such tweet,
    /// `.forbidden` when it is someone else's or a repost (`PinRule`).
    func pin(_ id: Int64, by userID: Int64) async throws
    /// Unpins `userID`'s pinned tweet; false when there was none.
    func unpin(by userID: Int64) async throws -> Bool
    /// The id of `userID`'s pinned tweet; nil when there is none.
    func pinnedTweetID(of userID: Int64) async throws -> Int64?
}
