import JSONRPC
import TwitterAPI
import TwitterCore

// @MemberwiseInit
/// What the tweet, timeline and user methods need: the stores, the read model that caches timelines and
/// streams them, and the text rules.
public struct TweetServices: Sendable {
    /// Reads and writes tweets, replies and reposts.
    public var store: any TweetStoring
    /// The follow graph.
    public var follows: any FollowStoring
    /// Likes, and each reader's marks.
    public var likes: any LikeStoring
    /// Bookmarks, each reader's own.
    public var bookmarks: any BookmarkStoring
    /// Each account's pinned tweet.
    public var pins: any PinStoring
    /// Lists and their members.
    public var lists: any ListStoring
    /// Mutes and blocks.
    public var relations: any RelationStoring
    /// Notifications.
    public var notifications: any NotificationStoring
    /// Search over tweets, people and tags.
    public var search: any TweetSearching
    /// Cached timelines and the live streams; the stores report their commits to it.
    public var feed: FeedReadModel
    /// The text rules, with the configured maximum length.
    public var text: TweetText
    /// The write rate limits per account.
    public var rates: WriteRateLimiter = .unlimited

    var readStores: ReadStores { ReadStores(tweets: store, likes: likes, follows: follows, relations: relations) }

    /// How far a subscriber may fall behind before it gets tweets.lagged.
    static let subscriberCapacity = 1000

    /// Starts streaming `timeline` on the caller's connection, first catching up from `sinceID`.
    func subscribe(_ timeline: Timeline, sinceID: Int64?, context: LoggedInContext) async throws
        -> API.Tweets.Subscribed
    {
        let reader = context.userID
        // Subscribed before the follow set is read: a follow committed in between is in the stream too.
        // What was answered before this call is delivered before the subscription joins: it is not news to it.
        await feed.waitUntilApplied()
        let subscription = feed.hub.subscribe(timeline, capacity: Self.subscriberCapacity)
        return try await context.session.subscribe(subscription) { id in
            SubscriptionForwarder(
                id: id, subscription: subscription, timeline: timeline, sinceID: sinceID, reader: reader,
                services: self, capacity: Self.subscriberCapacity)
        } preparing: {
            switch timeline {
            case .home(let owner): subscription.resolve(following: try await follows.followeeIDs(of: owner))
            // Read after the stream began, like a home stream's follows: a member added in between is in both.
            case .list(let listID): subscription.resolve(following: try await lists.memberIDs(of: listID))
            case .everyone, .author, .tag: break
            }
        }
    }
}
