import JSONRPC
import TwitterAPI
import TwitterCore

/// `/api/v1/timelines`: home, public, a hashtag's and a list's, each a page by tweet id.
enum TimelineEndpoints {
    static let all: [MastodonEndpoint] = [
        MastodonEndpoint("GET", "/api/v1/timelines/home") { request, caller in
            let paging = try request.paging()
            let page = try await caller.call(
                API.Timelines.home,
                .init(sinceId: paging.lowerID, maxId: try paging.maxTweetID(), limit: paging.limit(.tweets)))
            return statuses(page, request: request, path: "/api/v1/timelines/home")
        },
        MastodonEndpoint("GET", "/api/v1/timelines/public") { request, caller in
            let paging = try request.paging()
            // Every account here is local: a page of remote statuses, or of statuses with media, is empty.
            if try request.params.bool("remote") == true || request.params.bool("only_media") == true {
                return .emptyArray
            }
            let page = try await caller.call(
                API.Timelines.public,
                .init(sinceId: paging.lowerID, maxId: try paging.maxTweetID(), limit: paging.limit(.tweets)))
            return statuses(page, request: request, path: "/api/v1/timelines/public")
        },
        MastodonEndpoint("GET", "/api/v1/timelines/tag/:hashtag") { request, caller in
            let paging = try request.paging()
            if try request.params.bool("remote") == true || request.params.bool("only_media") == true {
                return .emptyArray
            }
            let page = try await caller.call(
                API.Tags.tweets,
                .init(
                    tag: try request.accountID("hashtag"), sinceId: paging.lowerID, maxId: try paging.maxTweetID(),
                    limit: paging.limit(.tweets)))
            return statuses(page, request: request, path: "/api/v1/timelines/tag/:hashtag")
        },
        MastodonEndpoint("GET", "/api/v1/timelines/list/:id") { request, caller in
            let paging = try request.paging()
            let page = try await caller.call(
                API.Timelines.list,
                .init(
                    id: try request.id(), sinceId: paging.lowerID, maxId: try paging.maxTweetID(),
                    limit: paging.limit(.tweets)))
            return statuses(page, request: request, path: "/api/v1/timelines/list/:id")
        },
    ]

    /// A page of tweets by id as Statuses, with its `Link`: the next page is older than the oldest tweet, the
    /// previous newer than the newest; an empty page has no links, which ends a client's paging.
    static func statuses(_ page: API.Tweets.TweetPage, request: MastodonRequest, path: String) -> MastodonResponse {
        statuses(
            page.tweets, request: request, path: path, next: page.oldestId.map { String($0) },
            previous: page.newestId.map { String($0) })
    }

    /// Tweets as a JSON array of Statuses with a `Link` to `next` (a `max_id`) and `previous` (a `min_id`).
    static func statuses(
        _ tweets: [Tweet], request: MastodonRequest, path: String, next: String?, previous: String?
    ) -> MastodonResponse {
        let link = MastodonLink.header(for: request, path: path, next: next, previous: previous)
        var body: [UInt8] = []
        body.reserveCapacity(tweets.count * 2048 + 2)
        writeArray(tweets, into: &body) { MastodonStatus.write($0, origin: request.origin, into: &$1) }
        return .json(body, headers: link.map { [$0] } ?? [])
    }
}
