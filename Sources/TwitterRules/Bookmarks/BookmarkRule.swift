import TwitterCore

/// Bookmarking and taking a bookmark back: the decision and its events, once for every store. A bookmark is the
/// reader's alone: nobody is notified, nothing is counted, and its events change the reader's marks only.
public enum BookmarkRule {
    /// What a bookmark or its removal does, once the store has read the tweet's original as the reader may see it.
    public struct Plan: Sendable, Equatable {
        /// The tweet bookmarked: a repost's original, as a like.
        public var tweetID: Int64
    }

    /// Decides `userID`'s bookmark (`bookmarking`) or its removal for tweet `id`, whose original and its author are
    /// `target` as `userID` may see them (`Interactions.target`: nil when missing or hidden across a block);
    /// -32004 when it is not there. Removing goes ahead whenever the tweet is there, seen or not, so a bookmark
    /// of a tweet hidden since can still be taken back.
    public static func decide(
        _ id: Int64, by userID: Int64, bookmarking: Bool, target: (id: Int64, author: Tweet.Author)?
    ) throws(TwitterError) -> Plan {
        guard let target else { throw TwitterError.notFound("Tweet \(id)") }
        return Plan(tweetID: target.id)
    }

    /// The one event of a bookmark or its removal that changed something; none when nothing changed.
    public static func events(_ plan: Plan, by userID: Int64, bookmarking: Bool, changed: Bool) -> [CommitEvent] {
        guard changed else { return [] }
        return [
            bookmarking
                ? .tweet(.bookmarked(id: plan.tweetID, userID: userID))
                : .tweet(.unbookmarked(id: plan.tweetID, userID: userID))
        ]
    }
}
