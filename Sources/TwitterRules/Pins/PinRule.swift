import TwitterCore

/// Pinning a tweet: whose tweet may be pinned, once for every store.
public enum PinRule {
    // @MemberwiseInit
    /// What a store reads of the tweet to pin, in its transaction.
    public struct Target: Sendable, Equatable {
        /// The tweet's author.
        public var authorID: Int64
        /// Whether it is a repost.
        public var isRepost: Bool
    }

    /// Decides `userID`'s pin of tweet `id`, read as `target` (nil when it is not there, a suspended account's
    /// tweets included): -32004 when it is not there, -32003 when it is someone else's or a repost. The tweet to
    /// pin when it may be.
    public static func decide(_ id: Int64, by userID: Int64, target: Target?) throws(TwitterError) -> Int64 {
        guard let target else { throw TwitterError.notFound("Tweet \(id)") }
        guard target.authorID == userID else {
            throw TwitterError(.forbidden, "You can pin only a tweet of your own")
        }
        guard !target.isRepost else { throw TwitterError(.forbidden, "A repost can not be pinned; pin a tweet") }
        return id
    }
}
