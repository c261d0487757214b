import JSONRPC
import TwitterAPI
import TwitterCore

/// `/api/v1/timelines`: home, public, a hashtag's and a list's, each a page by tweet id.
enum TimelineEndpoints {
    static let all: [MastodonEndpoint] = [
        MastodonEndpoint("GET", "/api/v1/timelines/home") { request, caller in
            let paging = try request.paging()
            return try await statuses(
                API.Timelines.home,
                .init(sinceId: paging.lowerID, maxId: try paging.maxTweetID(), limit: paging.limit(.tweets)),
                caller: caller, request: request, path: "/api/v1/timelines/home")
        },
        MastodonEndpoint("GET", "/api/v1/timelines/public") { request, caller in
            let paging = try request.paging()
            // Every account here is local: a page of remote statuses, or of statuses with media, is empty.
            if try request.params.bool("remote") == true || request.params.bool("only_media") == true {
                return .emptyArray
            }
            return try await statuses(
                API.Timelines.public,
                .init(sinceId: paging.lowerID, maxId: try paging.maxTweetID(), limit: paging.limit(.tweets)),
                caller: caller, request: request, path: "/api/v1/timelines/public")
        },
        MastodonEndpoint("GET", "/api/v1/timelines/tag/:hashtag") { request, caller in
            let paging = try request.paging()
            if try request.params.bool("remote") == true || request.params.bool("only_media") == true {
                return .emptyArray
            }
            return try await statuses(
                API.Tags.tweets,
                .init(
                    tag: try request.accountID("hashtag"), sinceId: paging.lowerID, maxId: try paging.maxTweetID(),
                    limit: paging.limit(.tweets)),
                caller: caller, request: request, path: "/api/v1/timelines/tag/:hashtag")
        },
        MastodonEndpoint("GET", "/api/v1/timelines/list/:id") { request, caller in
            let paging = try request.paging()
            return try await statuses(
                API.Timelines.list,
                .init(
                    id: try request.id(), sinceId: paging.lowerID, maxId: try paging.maxTweetID(),
                    limit: paging.limit(.tweets)),
                caller: caller, request: request, path: "/api/v1/timelines/list/:id")
        },
    ]

    /// The page of tweets by id that `method` answers, as Statuses with its `Link`: the next page is older than
    /// the oldest tweet, the previous newer than the newest; an empty page has no links, which ends a client's
    /// paging. The Statuses of an answer already rendered are the kept ones (`StatusPageRenderings`).
    static func statuses<Params>(
        _ method: RPCMethod<Params, API.Tweets.TweetPage>, _ params: Params, caller: any MastodonCaller,
        request: MastodonRequest, path: String
    ) async throws(RPCError) -> MastodonResponse {
        let answer = try await caller.encodedCall(method, params)
        let rendering = try StatusPageRenderings.shared.rendering(of: answer, context: request.origin) {
            () throws(RPCError) in
            let page = try method.decodedResult(answer)
            return .init(
                body: statusArray(page.tweets, origin: request.origin), newestID: page.newestId,
                oldestID: page.oldestId)
        }
        var response = statuses(
            rendering.body, request: request, path: path, next: rendering.oldestID.map { String($0) },
            previous: rendering.newestID.map { String($0) })
        response.compression = rendering.compression
        return response
    }

    /// Tweets as a JSON array of Statuses with a `Link` to `next` (a `max_id`) and `previous` (a `min_id`).
    static func statuses(
        _ tweets: [Tweet], request: MastodonRequest, path: String, next: String?, previous: String?
    ) -> MastodonResponse {
        statuses(
            statusArray(tweets, origin: request.origin), request: request, path: path, next: next, previous: previous)
    }

    /// `tweets` as a JSON array of Statuses whose URLs start with `origin`.
    static func statusArray(_ tweets: [Tweet], origin: String) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(tweets.count * 2048 + 2)
        writeArray(tweets, into: &body) { MastodonStatus.write($0, origin: origin, into: &$1) }
        return body
    }

    private static func statuses(
        _ body: [UInt8], request: MastodonRequest, path: String, next: String?, previous: String?
    ) -> MastodonResponse {
        let link = MastodonLink.header(for: request, path: path, next: next, previous: previous)
        return .json(body, headers: link.map { [$0] } ?? [])
    }
}
