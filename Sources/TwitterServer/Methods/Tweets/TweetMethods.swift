import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// `tweets.*`: post, fetch, get, delete, and the live stream.
struct TweetMethods: MethodGroup {
    let tweets: any TweetStoring
    let feed: FeedReadModel
    let users: any UserStoring
    let text: TweetText

    func register(in router: inout Router<RequestContext>) {
        // Ordered: started at once, so a client's pipelined posts join the same group commit.
        router.register(
            API.Tweets.post,
            .ordered { [tweets, text] (params: API.Tweets.PostParams, context) in
                let login = try context.session.requireLogin()
                let body = try text.validated(params.text)
                try Self.keyRule.validate(params)
                return tweets.post(text: body, idempotencyKey: params.idempotencyKey, by: login.userID)
            })
        // Immediate when the page is in memory (the whole feed's newest pages); awaited otherwise.
        router.register(
            API.Tweets.fetch,
            .immediate { [tweets, feed] (params: API.Tweets.FetchParams, _) throws -> Immediate<FeedPage> in
                // Naming an author needs a lookup first.
                if params.author == nil, let page = feed.pageInMemory(params.query(authorID: nil)) {
                    return .now(page)
                }
                return .later {
                    try await feed.page(params.query(authorID: try await authorID(params.author)), store: tweets)
                }
            })
        router.register(
            API.Tweets.get,
            .awaited { [tweets] (params: API.Tweets.IDParams, _) in
                guard let tweet = try await tweets.tweet(id: params.id) else {
                    throw TwitterError.notFound("Tweet \(params.id)")
                }
                return tweet
            })
        router.register(
            API.Tweets.delete,
            .awaited { [tweets] (params: API.Tweets.IDParams, context) in
                let login = try context.session.requireLogin()
                try await tweets.deleteTweet(id: params.id, by: login.userID)
                return API.Tweets.Deleted(deleted: true)
            })
        router.register(
            API.Tweets.subscribe,
            .awaited { (params: API.Tweets.SubscribeParams, context) in
                _ = try context.session.requireLogin()
                let author = try await authorID(params.author)
                let id = try context.session.addSubscription { id in
                    SubscriptionForwarder(
                        id: id, subscription: feed.hub.subscribe(authorID: author, capacity: Self.subscriberCapacity),
                        sinceID: params.sinceId, tweets: tweets, capacity: Self.subscriberCapacity
                    )
                }
                return API.Tweets.Subscribed(subscription: id)
            })
        router.register(
            API.Tweets.unsubscribe,
            .awaited { (params: API.Tweets.UnsubscribeParams, context) in
                guard context.session.cancelSubscription(params.subscription) else {
                    throw TwitterError.notFound("Subscription \(params.subscription)")
                }
                return API.Tweets.Unsubscribed(unsubscribed: true)
            })
    }

    /// How far a subscriber may fall behind before it gets tweets.lagged.
    static let subscriberCapacity = 1000

    static let keyRule = Validator<API.Tweets.PostParams>.field(
        \.idempotencyKey, "idempotencyKey",
        .ifPresent(
            .length(
                1...128, tooShort: "Idempotency key can not be empty",
                tooLong: "Idempotency key is at most 128 characters"))
    )

    private func authorID(_ username: String?) async throws -> Int64? {
        guard let username else { return nil }
        guard let user = try await users.user(username: username) else {
            throw TwitterError.notFound("User \(username)")
        }
        return user.id
    }
}

extension API.Tweets.FetchParams {
    /// The store's query for these params, once the author's name is resolved to `authorID`.
    func query(authorID: Int64?) -> TweetQuery {
        TweetQuery(sinceID: sinceId, maxID: maxId, limit: limit ?? 20, authorID: authorID)
    }
}
