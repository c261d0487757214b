import Foundation
import PostgresNIO
import TwitterCore
import TwitterSQL

/// Search in PostgreSQL: tweets through the generated `tweets.search` tsvector and its GIN index (written in the
/// post's own statement), people by prefix, and tags from `tweet_tag`.
struct SearchStore: TweetSearching {
    let database: PostgresStore

    /// Without words or phrases, one walk of the tweets newest first. With them: each window's newest matches,
    /// those that pass the other conditions (in the same query), ranked by `SearchRanking`, then the page's
    /// tweets read in full.
    func search(_ query: SearchQuery, authorID: Int64?, hiding: Set<Int64>, limit: Int, from position: SearchPosition)
        async throws -> SearchResults
    {
        try await PostgresSQLDatabase(store: database).read { connection in
            let filter = SearchFilter(query, authorID: authorID, hiding: hiding)
            guard query.hasTextTerms else {
                return try await Self.newest(connection, query, filter, limit: limit, before: position.before)
            }
            // A window that `from:`, tags or hidden accounts leave (nearly) empty does not end the page: the
            // next, older window fills it, up to `windowsPerPage` of them.
            var page: [Int64] = []
            var next: SearchPosition? = position
            var windows = 0
            while let at = next, page.count < limit, windows < Self.windowsPerPage {
                let (found, after) = try await Self.rankedWindow(
                    connection, query, filter, limit: limit - page.count, from: at)
                page += found
                next = after
                windows += 1
            }
            let tweets = Dictionary(
                try await TweetRows.fetchAll(connection, ids: page).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }
            )
            return SearchResults(tweets: page.compactMap { tweets[$0] }, next: next)
        }
    }

    /// The most windows one page looks through.
    static let windowsPerPage = 8

    /// Up to `limit` ids of one window's matches from `position`, ranked, and where the next page starts: the
    /// newest `windowSize` matches below the window's top, those that pass the filter, ranked by
    /// `SearchRanking`. One query: the window's size, floor and top come back on every row, and on a row of
    /// their own when nothing in the window passes.
    private static func rankedWindow(
        _ connection: any SQLConnection, _ query: SearchQuery, _ filter: SearchFilter, limit: Int,
        from position: SearchPosition
    ) async throws -> (ids: [Int64], next: SearchPosition?) {
        let matching = SearchFilter.tsquery(query.words + query.phrases, excluding: query.excluded)
        let top = (position.before ?? Int64.max) - 1
        let size = SearchPosition.windowSize
        let sql: SQLQuery = """
            WITH search_window AS (
                SELECT id FROM tweets WHERE search @@ (\(matching)) AND id <= \(top) ORDER BY id DESC LIMIT \(size)),
            bounds AS (SELECT count(*) AS size, min(id) AS floor, max(id) AS top FROM search_window)
            SELECT bounds.size, bounds.floor, bounds.top, candidate.id, candidate.text FROM bounds LEFT JOIN (
                SELECT tweets.id, tweets.text FROM search_window JOIN tweets ON tweets.id = search_window.id
                LEFT JOIN tweets AS original ON original.id = tweets.repost_of_id
                WHERE \(filter.conditions())) AS candidate ON true
            """
        let rows = try await connection.rows(sql)
        guard let first = rows.first, let floor = try first.column("floor", as: Int64?.self),
            let windowTop = try first.column("top", as: Int64?.self)
        else { return ([], nil) }
        let windowCount = try first.column("size", as: Int.self)
        var candidates: [(id: Int64, text: String)] = []
        for row in rows {
            guard let id = try row.column("id", as: Int64?.self) else { continue }
            candidates.append((id, try row.column("text", as: String.self)))
        }
        let ranked = SearchRanking.ranked(candidates, for: query).dropFirst(position.offset)
        let next: SearchPosition? =
            if ranked.count > limit {
                // The window's top is pinned from the first page on: newer matches posted meanwhile must not
                // slide it, or later pages would repeat and skip.
                SearchPosition(before: position.before ?? windowTop + 1, offset: position.offset + limit)
            } else if windowCount == SearchPosition.windowSize {
                SearchPosition(before: floor)
            } else {
                nil
            }
        return (Array(ranked.prefix(limit)), next)
    }

    /// Tweets matching only an author, tags or exclusions, newest first from `before`.
    private static func newest(
        _ connection: any SQLConnection, _ query: SearchQuery, _ filter: SearchFilter, limit: Int, before: Int64?
    ) async throws -> SearchResults {
        var conditions: [SQLQuery] = [
            filter.conditions(), "tweets.repost_of_id IS NULL", "tweets.id < \(before ?? Int64.max)",
        ]
        if !query.excluded.isEmpty {
            conditions.append("NOT tweets.search @@ (\(SearchFilter.tsquery(anyOf: query.excluded)))")
        }
        let sql = TweetRows.select(
            "WHERE \(conditions.joined(separator: " AND ")) ORDER BY tweets.id DESC LIMIT \(limit + 1)")
        let found = try await TweetRows.fetchAll(connection, sql)
        let page = Array(found.prefix(limit))
        return SearchResults(
            tweets: page, next: found.count > limit ? page.last.map { SearchPosition(before: $0.id) } : nil)
    }

    /// A prefix scan over the usernames and names, case-insensitive: the username by its folded key, the names
    /// by `ILIKE` (SQLite's `LIKE` folds ASCII letters the same way).
    func users(withPrefix prefix: String, hiding: Set<Int64>, limit: Int) async throws -> [UserSummary] {
        try await PostgresSQLDatabase(store: database).read { connection in
            let pattern = SQLPattern.likeEscaped(prefix.lowercased()) + "%"
            let hidden: SQLQuery = hiding.isEmpty ? "" : " AND NOT id \(isIn: hiding.sorted())"
            // The key is ordered by byte, as SQLite's BINARY collation orders it, whatever the database's locale.
            let sql: SQLQuery = """
                SELECT username, first_name, last_name FROM users
                WHERE (username_key LIKE \(pattern) ESCAPE '\\' OR first_name ILIKE \(pattern) ESCAPE '\\'
                    OR last_name ILIKE \(pattern) ESCAPE '\\')\(hidden) AND suspended_at IS NULL
                ORDER BY username_key LIKE \(pattern) ESCAPE '\\' DESC, username_key COLLATE "C" LIMIT \(limit)
                """
            return try await connection.rows(sql).map {
                UserSummary(
                    username: try $0.column("username"), firstName: try $0.column("first_name"),
                    lastName: try $0.column("last_name"))
            }
        }
    }

    /// Groups the window's rows of `tweet_tag` (found by its created_at index).
    func trending(since: Date, limit: Int) async throws -> [TrendingTag] {
        try await PostgresSQLDatabase(store: database).read { connection in
            try await connection.rows(
                """
                SELECT tag, count(*) AS tweets_count, count(DISTINCT author_id) AS users_count
                FROM tweet_tags WHERE created_at >= \(since) AND \(AccountStanding.notSuspended("author_id"))
                GROUP BY tag ORDER BY users_count DESC, tweets_count DESC, tag COLLATE "C" LIMIT \(limit)
                """
            ).map {
                TrendingTag(
                    tag: try $0.column("tag"), tweetsCount: try $0.column("tweets_count", as: Int.self),
                    usersCount: try $0.column("users_count", as: Int.self))
            }
        }
    }
}
