import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// `tweets.*`: post and reply, fetch, get, delete, threads, likes, reposts, and the live stream.
struct TweetMethods: MethodGroup {
    let services: TweetServices
    let lookup: UserLookup

    func register(in router: inout Router<RequestContext>) {
        let (tweets, feed, text, stores) = (services.store, services.feed, services.text, services.readStores)
        // Declared `sharesCommits`: nothing here awaits before `tweets.post` queues the post in the commit order,
        // so a client's pipelined posts share a commit (`LineAnswerer`'s rule of order).
        router.register(
            API.Tweets.post, in: .loggedIn,
            { (params: API.Tweets.PostParams, context) in
                let login = context.login
                // A quote may say nothing more than what it quotes.
                let body = try params.quoteOf == nil ? text.validated(params.text) : text.validatedQuote(params.text)
                try Self.keyRule.validate(params)
                let tweet = try await tweets.post(
                    PostDraft(
                        text: body, by: login.userID, inReplyToID: params.inReplyToId,
                        idempotencyKey: params.idempotencyKey, quoteOfID: params.quoteOf))
                guard params.quoteOf != nil else { return tweet }
                // The quoted tweet as its quoter sees it (with its marks); a plain post has nothing to resolve.
                return try await feed.marked([tweet], for: login.userID, stores: stores)[0]
            })
        // From the caches when the page is there (the public timeline's newest pages), answered before the
        // connection's task first waits; naming an author needs a lookup first.
        router.register(
            API.Tweets.fetch, in: .loggedIn,
            { [lookup] (params: API.Tweets.FetchParams, context) in
                let reader = context.userID
                if params.author == nil, let page = feed.cachedPage(params.query(.everyone), reader: reader) {
                    return page
                }
                let timeline: Timeline = try await lookup.id(ofOptional: params.author).map { .author($0) } ?? .everyone
                return try await feed.page(params.query(timeline), reader: reader, stores: stores)
            })
        router.register(
            API.Tweets.get, in: .loggedIn,
            { (params: API.Tweets.IDParams, context) in
                let reader = context.userID
                let tweet = try await services.access.tweet(params.id, for: reader)
                return try await feed.marked([tweet], for: reader, stores: stores)[0]
            })
        router.register(API.Tweets.delete, in: .loggedIn) { params, context in
            let reader = context.userID
            try await services.access.requireDeletable(params.id, by: reader)
            try await tweets.deleteTweet(id: params.id, by: reader)
            return API.Tweets.Deleted(deleted: true)
        }
        router.register(
            API.Tweets.subscribe, in: .loggedIn,
            { [lookup] (params: API.Tweets.SubscribeParams, context) in
                let timeline: Timeline = try await lookup.id(ofOptional: params.author).map { .author($0) } ?? .everyone
                return try await services.subscribe(timeline, sinceID: params.sinceId, context: context)
            })
        router.register(
            API.Tweets.unsubscribe, in: .loggedIn,
            { (params: API.Tweets.UnsubscribeParams, context) in
                try context.session.unsubscribe(params.subscription)
            })
        registerConversations(in: &router)
    }

    /// Threads, likes and reposts.
    private func registerConversations(in router: inout Router<RequestContext>) {
        let (tweets, feed, likes, stores) = (services.store, services.feed, services.likes, services.readStores)
        router.register(
            API.Tweets.thread, in: .loggedIn,
            { (params: API.Tweets.IDParams, context) in
                let reader = context.userID
                let rows = try await services.access.thread(
                    of: params.id, for: reader, descendantLimit: Conversation.descendantLimit)
                let marks = try await feed.marks.marks(of: reader, store: likes)
                let quoting = try await feed.quoting(rows, for: reader, marks: marks, stores: stores)
                return ThreadAnswer(Conversation(quoting), marks: marks)
            })
        router.register(
            API.Tweets.quotes, in: .loggedIn,
            { (params: API.Tweets.QuotesParams, context) in
                let reader = context.userID
                let request = try PageCursor.request(.tweets, limit: params.limit, cursor: params.cursor)
                // A tweet the caller may not see is as if absent, its quotes too; a repost's are its original's.
                let quoted = try await services.access.tweet(params.id, for: reader)
                let page = try await services.access.quotes(of: quoted.shownID, for: reader, page: request)
                let shown = try await feed.marked(page.items, for: reader, stores: stores)
                return TweetListAnswer(tweets: shown, nextCursor: page.next, json: feed.caches.tweetJSON)
            })
        router.register(
            API.Tweets.like, in: .loggedIn,
            { (params: API.Tweets.IDParams, context) in
                let login = context.login
                _ = try await services.access.tweet(params.id, for: login.userID)
                let counts = try await likes.like(params.id, by: login.userID)
                return API.Tweets.Liked(liked: true, likesCount: counts.likes)
            })
        router.register(
            API.Tweets.unlike, in: .loggedIn,
            { (params: API.Tweets.IDParams, context) in
                let login = context.login
                _ = try await services.access.tweet(params.id, for: login.userID)
                let counts = try await likes.unlike(params.id, by: login.userID)
                return API.Tweets.Liked(liked: false, likesCount: counts.likes)
            })
        router.register(
            API.Tweets.likedBy, in: .loggedIn,
            { (params: API.Tweets.LikedByParams, context) in
                let request = try await services.pageRequest(params.limit, params.cursor, context)
                // A tweet the caller may not see is as if absent, its likers too.
                _ = try await services.access.tweet(params.id, for: context.userID)
                guard let page = try await likes.likers(of: params.id, page: request) else {
                    throw TwitterError.notFound("Tweet \(params.id)")
                }
                return API.Users.UserPage(page)
            })
        router.register(
            API.Tweets.liked, in: .loggedIn,
            { (params: API.Tweets.LikedParams, context) in
                let reader = context.userID
                let request = try PageCursor.request(.tweets, limit: params.limit, cursor: params.cursor)
                let page = try await services.access.liked(by: reader, page: request, in: likes)
                let marked = try await feed.marked(page.tweets, for: reader, stores: stores)
                return TweetListAnswer(tweets: marked, nextCursor: page.next, json: feed.caches.tweetJSON)
            })
        router.register(
            API.Tweets.repostedBy, in: .loggedIn,
            { (params: API.Tweets.LikedByParams, context) in
                let request = try await services.pageRequest(params.limit, params.cursor, context)
                // As likedBy: a tweet the caller may not see is as if absent, its reposters too.
                _ = try await services.access.tweet(params.id, for: context.userID)
                guard let page = try await likes.reposters(of: params.id, page: request) else {
                    throw TwitterError.notFound("Tweet \(params.id)")
                }
                return API.Users.UserPage(page)
            })
        // Queued like a post (`sharesCommits`, nothing awaited before): a repost is a tweet, and takes its id in
        // commit order.
        router.register(
            API.Tweets.repost, in: .loggedIn,
            { (params: API.Tweets.IDParams, context) in
                let reader = context.userID
                let repost = try await tweets.repost(params.id, by: reader)
                return try await feed.marked([repost], for: reader, stores: stores)[0]
            })
        router.register(API.Tweets.unrepost, in: .loggedIn) { params, context in
            let reader = context.userID
            _ = try await tweets.unrepost(params.id, by: reader)
            return API.Tweets.Reposted(reposted: false)
        }
    }

    static let keyRule = Validator<API.Tweets.PostParams>.field(
        \.idempotencyKey, "idempotencyKey",
        .ifPresent(
            FreeText.validator(
                "Idempotency key", allowsNewlines: false,
                length: .length(
                    1...128, tooShort: "Idempotency key can not be empty",
                    tooLong: "Idempotency key is at most 128 characters")))
    )
}

extension API.Tweets.FetchParams {
    /// The store's query for these params over `timeline`.
    func query(_ timeline: Timeline) -> TweetQuery {
        TweetQuery(timeline, sinceID: sinceId, maxID: maxId, limit: API.PageSize.tweets.limit(limit))
    }
}
