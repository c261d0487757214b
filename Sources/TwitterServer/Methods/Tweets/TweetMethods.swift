import Foundation
import JSONRPC
import TwitterCore

/// `tweets.*`: post, fetch, get, delete, and the live stream.
struct TweetMethods: MethodGroup {
    let tweets: any TweetProviding
    let users: any UserStoring
    let hub: TweetHub
    let text: TweetText

    struct PostParams: Decodable, Sendable {
        var text: String
        var idempotencyKey: String?
    }

    struct FetchParams: Decodable, Sendable {
        var sinceId: Int64?
        var maxId: Int64?
        var limit: Int?
        var author: String?
    }

    struct IDParams: Decodable, Sendable {
        var id: Int64
    }

    struct SubscribeParams: Decodable, Sendable {
        var author: String?
        var sinceId: Int64?
    }

    struct UnsubscribeParams: Decodable, Sendable {
        var subscription: Int
    }

    struct Page: JSONWritable {
        let tweets: [Tweet]
        let newestId: Int64?
        let oldestId: Int64?

        func writeJSON(into bytes: inout [UInt8]) {
            JSONObjectWriter.write(into: &bytes) { page, bytes in
                page.integer("newestId", newestId, into: &bytes)
                page.integer("oldestId", oldestId, into: &bytes)
                page.value("tweets", tweets, into: &bytes)
            }
        }
    }

    struct Deleted: Encodable { let deleted: Bool }
    struct Subscribed: Encodable { let subscription: Int }
    struct Unsubscribed: Encodable { let unsubscribed: Bool }

    func register(in router: inout Router<RequestContext>) {
        router.register(Self.post) { [tweets, text] (params: PostParams, context) in
            let login = try context.session.requireLogin()
            let body = try text.validated(params.text)
            try Self.keyRule.validate(params)
            return try await tweets.postTweet(text: body, idempotencyKey: params.idempotencyKey, by: login.userID)
        }
        router.register(Self.fetch) { (params: FetchParams, context) in
            let login = try context.session.requireLogin()
            let query = TweetQuery(
                sinceID: params.sinceId, maxID: params.maxId, limit: params.limit ?? 20,
                authorID: try await authorID(params.author)
            )
            let page = try await tweets.fetchTweets(query, for: login.userID)
            return Page(tweets: page, newestId: page.first?.id, oldestId: page.last?.id)
        }
        router.register(Self.get) { [tweets] (params: IDParams, context) in
            let login = try context.session.requireLogin()
            guard let tweet = try await tweets.tweet(id: params.id, for: login.userID) else {
                throw TwitterError.notFound("Tweet \(params.id)")
            }
            return tweet
        }
        router.register(Self.delete) { [tweets] (params: IDParams, context) in
            let login = try context.session.requireLogin()
            try await tweets.deleteTweet(id: params.id, by: login.userID)
            return Deleted(deleted: true)
        }
        router.register(Self.subscribe) { (params: SubscribeParams, context) in
            _ = try context.session.requireLogin()
            let author = try await authorID(params.author)
            let id = try context.session.addSubscription { id in
                SubscriptionForwarder(
                    id: id, subscription: hub.subscribe(authorID: author, capacity: Self.subscriberCapacity),
                    sinceID: params.sinceId, tweets: tweets, capacity: Self.subscriberCapacity
                )
            }
            return Subscribed(subscription: id)
        }
        router.register(Self.unsubscribe) { (params: UnsubscribeParams, context) in
            guard context.session.cancelSubscription(params.subscription) else {
                throw TwitterError.notFound("Subscription \(params.subscription)")
            }
            return Unsubscribed(unsubscribed: true)
        }
    }

    /// How far a subscriber may fall behind before it gets tweets.lagged.
    static let subscriberCapacity = 1000

    static let keyRule = Validator<PostParams>.field(
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
