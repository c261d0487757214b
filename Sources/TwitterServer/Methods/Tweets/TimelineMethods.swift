import JSONRPC
import TwitterAPI
import TwitterCore

/// `timeline.*`: the home, user, list and public timelines, and their live streams.
struct TimelineMethods: MethodGroup {
    let services: TweetServices
    let lookup: UserLookup

    func register(in router: inout Router<RequestContext>) {
        let (feed, stores) = (services.feed, services.readStores)
        // From the caches when the reader's follows and their accounts' tweets are there, answered before the
        // connection's task first waits.
        router.register(
            API.Timelines.home, in: .loggedIn,
            { (params: API.Timelines.PageParams, context) in
                let reader = context.userID
                let query = params.query(.home(reader))
                if let page = feed.cachedPage(query, reader: reader) { return page }
                return try await feed.page(query, reader: reader, stores: stores)
            })
        router.register(
            API.Timelines.user, in: .loggedIn,
            { [lookup] (params: API.Timelines.UserParams, context) in
                let reader = context.userID
                let author = try await lookup.id(of: params.username)
                let query = TweetQuery(
                    .author(author), sinceID: params.sinceId, maxID: params.maxId,
                    limit: API.PageSize.tweets.limit(params.limit))
                let page = try await feed.page(query, reader: reader, stores: stores)
                // The pinned tweet heads the first page only.
                guard params.maxId == nil,
                    let pinned = try await services.access.pinnedTweet(of: author, for: reader, in: services.pins)
                else { return page.pinning(nil, json: feed.caches.tweetJSON) }
                let marked = try await feed.marked([pinned], for: reader, stores: stores)[0]
                return page.pinning(marked, json: feed.caches.tweetJSON)
            })
        // Paged and filtered as home's, from the store: only who may see the list is asked first.
        router.register(
            API.Timelines.list, in: .loggedIn,
            { (params: API.Timelines.ListParams, context) in
                let reader = context.userID
                _ = try await services.access.list(params.id, for: reader, in: services.lists)
                let query = TweetQuery(
                    .list(params.id), sinceID: params.sinceId, maxID: params.maxId,
                    limit: API.PageSize.tweets.limit(params.limit))
                return try await feed.page(query, reader: reader, stores: stores)
            })
        // The same answer as tweets.fetch without an author, from the caches when it is there.
        router.register(
            API.Timelines.public, in: .loggedIn,
            { (params: API.Timelines.PageParams, context) in
                let reader = context.userID
                let query = params.query(.everyone)
                if let page = feed.cachedPage(query, reader: reader) { return page }
                return try await feed.page(query, reader: reader, stores: stores)
            })
        router.register(
            API.Timelines.subscribe, in: .loggedIn,
            { [lookup] (params: API.Timelines.SubscribeParams, context) in
                let reader = context.userID
                let timeline: Timeline
                switch params.timeline {
                case "home": timeline = .home(reader)
                case "public": timeline = .everyone
                case "list":
                    guard let listID = params.listId else {
                        throw TwitterError.invalidFields(["listId": "is required for timeline \"list\""])
                    }
                    // A list the reader may not see is as if absent, private or behind a block.
                    _ = try await services.access.list(listID, for: reader, in: services.lists)
                    timeline = .list(listID)
                default:
                    guard let username = params.username else {
                        throw TwitterError.invalidFields(["username": "is required for timeline \"user\""])
                    }
                    timeline = .author(try await lookup.id(of: username))
                }
                return try await services.subscribe(timeline, sinceID: params.sinceId, context: context)
            })
    }
}

extension API.Timelines.PageParams {
    /// The store's query for these params over `timeline`.
    func query(_ timeline: Timeline) -> TweetQuery {
        TweetQuery(timeline, sinceID: sinceId, maxID: maxId, limit: API.PageSize.tweets.limit(limit))
    }
}
