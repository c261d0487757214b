import TwitterCore

extension TweetAccess {
    /// What a live tweet stream may send `reader` now, asked as each line goes out so a mute, a block or a list
    /// made private takes effect at once: the policy for the reader, and the stream's list (nil for the other
    /// timelines) as it stands.
    struct StreamView {
        let visibility: TweetVisibility
        let reader: Int64
        let list: SubscriptionForwarder.ListState?

        /// Whether the list, if any, may be read: its owner always, anyone else while public and across no block.
        private var readsList: Bool {
            list.map { visibility.allowsList(ownedBy: $0.ownerID, isPrivate: $0.isPrivate, reader: reader) } ?? true
        }

        /// Whether the stream sends `tweet`.
        func sends(_ tweet: Tweet) -> Bool {
            readsList && visibility.lists(tweet)
        }

        /// The tweets of `tweets` the stream sends, in order.
        func sends(_ tweets: [Tweet]) -> [Tweet] {
            readsList ? visibility.listed(tweets) : []
        }

        /// Whether the stream tells of the deletion of a tweet by `authorID`.
        func sendsDeletion(by authorID: Int64) -> Bool {
            readsList && visibility.listsDeletion(by: authorID)
        }
    }

    /// The stream's view for `reader` now.
    func stream(for reader: Int64, list: SubscriptionForwarder.ListState?) async throws -> StreamView {
        StreamView(visibility: try await visibility(for: reader), reader: reader, list: list)
    }
}
