import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// `/api/v2/search` and `/api/v1/trends/tags`.
enum SearchEndpoints {
    static let all: [MastodonEndpoint] = [
        MastodonEndpoint("GET", "/api/v2/search", search),
        MastodonEndpoint("GET", "/api/v1/trends/tags") { request, caller in
            let limit = try request.params.int("limit").map { min(max($0, 1), API.PageSize.tags.maximum) }
            let trending = try await caller.call(API.Tags.trending, .init(limit: limit))
            return .json { bytes in
                writeArray(trending.tags, into: &bytes) { MastodonTag.write($0.tag, origin: request.origin, into: &$1) }
            }
        },
    ]

    /// `GET /api/v2/search?q=&type=&limit=&offset=`: accounts by name, statuses by our search, and the hashtag
    /// `q` names when it has tweets. `offset` pages the statuses (Mastodon.py does with `type`); accounts and the
    /// hashtag are on the first page only.
    @Sendable static func search(_ request: MastodonRequest, _ caller: any MastodonCaller) async throws
        -> MastodonResponse
    {
        let params = request.params
        let query = (params.string("q") ?? "").trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else { throw MastodonError.unprocessable("q is required") }
        let type = params.string("type") ?? ""
        guard ["", "accounts", "statuses", "hashtags"].contains(type) else {
            throw MastodonError.unprocessable("type must be accounts, statuses or hashtags")
        }
        let limit = try params.int("limit").map { min(max($0, 1), 40) } ?? 20
        let offset = max(try params.int("offset") ?? 0, 0)
        var accounts: [UserOverview] = []
        var tweets: [Tweet] = []
        var tags: [String] = []
        if type.isEmpty || type == "accounts", offset == 0 {
            accounts = try await AccountEndpoints.searchAccounts(query, limit: params, caller)
        }
        if type.isEmpty || type == "statuses" {
            tweets = try await searchedTweets(query, skipping: offset, limit: limit, caller)
        }
        if type.isEmpty || type == "hashtags", offset == 0 {
            let tag = query.hasPrefix("#") ? String(query.dropFirst()) : query
            if !tag.isEmpty, !tag.contains(" ") {
                let page = try await caller.call(API.Tags.tweets, .init(tag: tag, limit: 1))
                if !page.tweets.isEmpty { tags = [tag] }
            }
        }
        return .json { bytes in
            JSONObjectWriter.write(into: &bytes) { results, bytes in
                results.raw("accounts", into: &bytes) { bytes in
                    writeArray(accounts, into: &bytes) { MastodonAccount($0).write(origin: request.origin, into: &$1) }
                }
                results.raw("statuses", into: &bytes) { bytes in
                    writeArray(tweets, into: &bytes) { MastodonStatus.write($0, origin: request.origin, into: &$1) }
                }
                results.raw("hashtags", into: &bytes) { bytes in
                    writeArray(tags, into: &bytes) { MastodonTag.write($0, origin: request.origin, into: &$1) }
                }
            }
        }
    }

    /// The most statuses a search skips: an offset is served by reading past it, so a larger one would make one
    /// request cost many searches. Past it, a page is empty, which ends a client's paging.
    static let maximumSearchOffset = 1_000

    /// `limit` statuses matching `query` after the first `offset`. Our search pages by cursor, not by offset: the
    /// pages before are read (the largest page at a time) and dropped.
    static func searchedTweets(_ query: String, skipping offset: Int, limit: Int, _ caller: any MastodonCaller)
        async throws -> [Tweet]
    {
        guard offset <= maximumSearchOffset else { return [] }
        var skip = offset
        var cursor: String?
        var found: [Tweet] = []
        repeat {
            let size = min(skip + limit - found.count, API.PageSize.search.maximum)
            let page = try await caller.call(API.Search.tweets, .init(query: query, limit: size, cursor: cursor))
            let kept = page.tweets.dropFirst(skip)
            skip -= page.tweets.count - kept.count
            found += kept.prefix(limit - found.count)
            cursor = page.tweets.isEmpty ? nil : page.nextCursor
        } while found.count < limit && cursor != nil
        return found
    }
}
