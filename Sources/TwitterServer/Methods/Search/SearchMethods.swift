import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// `search.*` and `tags.*`: finding tweets by words, people by name, and tweets by tag.
struct SearchMethods: MethodGroup {
    let services: TweetServices
    let lookup: UserLookup

    func register(in router: inout Router<RequestContext>) {
        let (services, search, lookup) = (services, services.search, lookup)
        router.register(
            API.Search.tweets, in: .loggedIn,
            { (params: API.Search.TweetsParams, context) in
                let reader = context.userID
                let query = try SearchQuery(parsing: params.query)
                let position = try SearchCursor.position(params.cursor)
                let authorID = try await lookup.id(ofOptional: query.author)
                let found = try await services.access.search(
                    query, authorID: authorID, limit: API.PageSize.search.limit(params.limit), from: position,
                    for: reader, in: search)
                return API.Search.TweetResults(
                    tweets: try await services.feed.marked(found.tweets, for: reader, stores: services.readStores),
                    nextCursor: found.next.map(SearchCursor.string))
            })
        router.register(
            API.Search.users, in: .loggedIn,
            { (params: API.Search.UsersParams, context) in
                let reader = context.userID
                let prefix = params.query.trimmingCharacters(in: .whitespaces)
                guard (1...64).contains(prefix.count) else {
                    throw TwitterError.invalidFields(["query": "must be 1 to 64 characters"])
                }
                return API.Search.UserResults(
                    users: try await services.access.users(
                        withPrefix: prefix, limit: API.PageSize.search.limit(params.limit), for: reader, in: search))
            })
        router.register(
            API.Tags.tweets, in: .loggedIn,
            { (params: API.Tags.TweetsParams, context) in
                let reader = context.userID
                let query = TweetQuery(
                    .tag(try Self.tagKey(params.tag)), sinceID: params.sinceId, maxID: params.maxId,
                    limit: API.PageSize.tweets.limit(params.limit))
                return try await services.feed.page(query, reader: reader, stores: services.readStores)
            })
        router.register(
            API.Tags.trending, in: .loggedIn,
            { (params: API.Tags.TrendingParams, _) in
                let (hours, limit) = (params.hours ?? 24, API.PageSize.tags.limit(params.limit))
                return API.Tags.Trending(
                    tags: try await services.feed.caches.trending.tags(hours: hours, limit: limit) {
                        try await search.trending(since: Date().addingTimeInterval(-Double(hours) * 3600), limit: limit)
                    })
            })
    }

    /// The folded tag of `tags.tweets`' param, with or without its `#`; -32602 when it is no tag.
    static func tagKey(_ tag: String) throws -> String {
        let bare = tag.hasPrefix("#") || tag.hasPrefix("\u{FF03}") ? String(tag.unicodeScalars.dropFirst()) : tag
        let found = EntityScanner.scan("#" + bare).hashtags
        guard found.count == 1, found[0].tag == bare else {
            throw TwitterError.invalidFields(["tag": "must be letters, digits and _, with one letter at least"])
        }
        return EntityScanner.tagKey(bare)
    }
}

/// `search.tweets`' cursor: a `SearchPosition` as `before.offset` (`before` empty for the newest window).
enum SearchCursor {
    static func string(_ position: SearchPosition) -> String {
        "\(position.before.map(String.init) ?? "").\(position.offset)"
    }

    static func position(_ cursor: String?) throws -> SearchPosition {
        guard let cursor else { return SearchPosition() }
        let parts = cursor.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let offset = Int(parts[1]), (0..<SearchPosition.windowSize).contains(offset) else {
            throw TwitterError.invalidFields(["cursor": "is not the nextCursor of a page"])
        }
        if parts[0].isEmpty { return SearchPosition(offset: offset) }
        guard let before = Int64(parts[0]), before > 0 else {
            throw TwitterError.invalidFields(["cursor": "is not the nextCursor of a page"])
        }
        return SearchPosition(before: before, offset: offset)
    }
}
