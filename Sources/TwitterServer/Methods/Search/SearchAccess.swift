import TwitterCore

extension TweetAccess {
    /// The tweets matching `query` that `reader` may see in a list: the store leaves the hidden accounts out in
    /// SQL, and `TweetVisibility.listed` has the last word on what it read (a repost of a hidden account's tweet).
    func search(
        _ query: SearchQuery, authorID: Int64?, limit: Int, from position: SearchPosition, for reader: Int64,
        in search: any TweetSearching
    ) async throws -> SearchResults {
        let visibility = try await visibility(for: reader)
        var found = try await search.search(
            query, authorID: authorID, hiding: visibility.hiding, limit: limit, from: position)
        found.tweets = visibility.listed(found.tweets)
        return found
    }

    /// The people whose names start with `prefix`, but none `reader` hides (a mute, a block either way).
    func users(withPrefix prefix: String, limit: Int, for reader: Int64, in search: any TweetSearching) async throws
        -> [UserSummary]
    {
        try await search.users(withPrefix: prefix, hiding: visibility(for: reader).hiding, limit: limit)
    }
}
