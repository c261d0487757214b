import Foundation
import GRDB
import TwitterCore
import TwitterSQL

// @MemberwiseInit
/// Search in SQLite: tweets through the FTS5 index `tweet_search` and, past its mark, the tweets it does not
/// hold yet (`SearchIndexer`), people by prefix, and tags from `tweet_tags`.
public struct SearchStore: TweetSearching {
    let database: AppDatabase

    /// Without words or phrases, one walk of the tweets newest first. With them: the ids of the window's
    /// newest matches (those past the index's mark matched by `SearchMatcher`, then the index's, which it
    /// walks newest first and stops), the texts of those that pass the other conditions, ranked by
    /// `SearchRanking`, and the page's tweets read in full.
    public func search(
        _ query: SearchQuery, authorID: Int64?, hiding: Set<Int64>, limit: Int, from position: SearchPosition
    ) async throws -> SearchResults {
        try await database.writer.read { db in
            var conditions: [SQLQuery] = []
            if let authorID { conditions.append("tweets.author_id = \(authorID)") }
            for tag in query.tags {
                conditions.append("tweets.id IN (SELECT tweet_id FROM tweet_tags WHERE tag = \(tag))")
            }
            if let hiding = Self.hidingClause(hiding) { conditions.append(hiding) }
            // Ranked before the tweets are read (whose joins leave suspended authors out): without this, their
            // matches took places in a page and were then dropped, leaving it short or empty.
            conditions.append(
                """
                \(AccountStanding.notSuspended("tweets.author_id")) AND (original.author_id IS NULL OR \
                \(AccountStanding.notSuspended("original.author_id")))
                """)
            // Read in this transaction, so the index and the tweets past its mark are one snapshot.
            let indexed = try SearchIndexer.indexedThrough(db)
            var matcher = SearchMatcher(query)
            guard query.hasTextTerms else {
                return try Self.newest(
                    db, query, &matcher, indexed: indexed, conditions, limit: limit,
                    before: position.before)
            }
            var match = (query.words + query.phrases).map(Self.quoted).joined(separator: " AND ")
            for excluded in query.excluded { match += " NOT " + Self.quoted(excluded) }
            // A window that `from:`, tags or hidden accounts leave (nearly) empty does not end the page: the
            // next, older window fills it, up to `windowsPerPage` of them.
            var page: [Int64] = []
            var next: SearchPosition? = position
            var windows = 0
            while let at = next, page.count < limit, windows < Self.windowsPerPage {
                let (found, after) = try Self.rankedWindow(
                    db, query, match: match, &matcher, indexed: indexed, conditions,
                    limit: limit - page.count, from: at)
                page += found
                next = after
                windows += 1
            }
            var tweets: [Int64: Tweet] = [:]
            if !page.isEmpty {
                let byID = TweetRows.select("WHERE tweets.id \(isIn: page)")
                for tweet in try SQLiteConnection(db: db).rows(byID).map(TweetRows.tweet(from:)) {
                    tweets[tweet.id] = tweet
                }
            }
            return SearchResults(tweets: page.compactMap { tweets[$0] }, next: next)
        }
    }

    /// The most windows one page looks through.
    static let windowsPerPage = 8

    /// Up to `limit` ids of one window's matches from `position`, ranked, and where the next page starts: the
    /// newest `windowSize` matches below the window's top, those that pass `conditions`, ranked by
    /// `SearchRanking`.
    private static func rankedWindow(
        _ db: Database, _ query: SearchQuery, match: String, _ matcher: inout SearchMatcher, indexed: Int64,
        _ conditions: [SQLQuery], limit: Int, from position: SearchPosition
    ) throws -> (ids: [Int64], next: SearchPosition?) {
        let top = (position.before ?? Int64.max) - 1
        var window = try unindexedMatches(db, &matcher, after: indexed, through: top, limit: SearchPosition.windowSize)
        if window.count < SearchPosition.windowSize {
            window += try Int64.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT rowid FROM tweet_search WHERE tweet_search MATCH ? AND rowid <= ? ORDER BY rowid DESC LIMIT ?"
                ), arguments: [match, min(top, indexed), SearchPosition.windowSize - window.count])
        }
        guard let floor = window.last else { return ([], nil) }
        let filter: SQLQuery = conditions.isEmpty ? "" : " AND \(conditions.joined(separator: " AND "))"
        let candidates = try SQLiteConnection(db: db).rows(
            """
            SELECT tweets.id, tweets.text FROM tweets LEFT JOIN tweets AS original ON original.id = tweets.repost_of_id
            WHERE tweets.id IN (\(unescaped: window.map(String.init).joined(separator: ",")))\(filter)
            """
        ).map { (id: try $0.column("id", as: Int64.self), text: try $0.column("text", as: String.self)) }
        let ranked = SearchRanking.ranked(candidates, for: query).dropFirst(position.offset)
        let next: SearchPosition? =
            if ranked.count > limit {
                // The window's top is pinned from the first page on: newer matches posted meanwhile must not
                // slide it, or later pages would repeat and skip.
                SearchPosition(before: position.before ?? window[0] + 1, offset: position.offset + limit)
            } else if window.count == SearchPosition.windowSize {
                SearchPosition(before: floor)
            } else {
                nil
            }
        return (Array(ranked.prefix(limit)), next)
    }

    /// The newest tweets past the index's mark, at most `top`, that `matcher` matches: the index's lag, read
    /// from the tweet table (at most `SearchIndexer.lagBeforeIndexing` and a batch of posts).
    private static func unindexedMatches(
        _ db: Database, _ matcher: inout SearchMatcher, after indexed: Int64, through top: Int64, limit: Int
    ) throws -> [Int64] {
        guard top > indexed else { return [] }
        var found: [Int64] = []
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT id, text FROM tweets WHERE id > ? AND id <= ? ORDER BY id DESC"),
            arguments: [indexed, top])
        while found.count < limit, let row = try rows.next() {
            if matcher.matches(row["text"]) { found.append(row["id"]) }
        }
        return found
    }

    /// Tweets matching only an author, tags or exclusions, newest first from `before`. The index leaves out
    /// what it holds of the exclusions; `matcher` what is past its mark.
    private static func newest(
        _ db: Database, _ query: SearchQuery, _ matcher: inout SearchMatcher, indexed: Int64,
        _ conditions: [SQLQuery], limit: Int, before: Int64?
    ) throws -> SearchResults {
        var conditions = conditions + ["tweets.repost_of_id IS NULL"]
        if !query.excluded.isEmpty {
            let exclusion = query.excluded.map(quoted).joined(separator: " OR ")
            conditions.append("tweets.id NOT IN (SELECT rowid FROM tweet_search WHERE tweet_search MATCH \(exclusion))")
        }
        let filter = conditions.joined(separator: " AND ")
        var found: [Tweet] = []
        var below = before ?? Int64.max
        // One read, unless the matcher left out some of what it read past the mark: then the next from there.
        while found.count <= limit {
            let wanted = limit + 1 - found.count
            let read = try SQLiteConnection(db: db).rows(
                TweetRows.select(
                    "WHERE \(filter) AND tweets.id < \(below) ORDER BY tweets.id DESC LIMIT \(Int64(wanted))")
            ).map(TweetRows.tweet(from:))
            found += read.filter { $0.id <= indexed || !matcher.isExcluded($0.text) }
            guard read.count == wanted, let last = read.last else { break }
            below = last.id
        }
        let page = Array(found.prefix(limit))
        return SearchResults(
            tweets: page, next: found.count > limit ? page.last.map { SearchPosition(before: $0.id) } : nil)
    }

    /// A prefix scan over the usernames and names, case-insensitive by the folded username key and `LIKE`.
    public func users(withPrefix prefix: String, hiding: Set<Int64>, limit: Int) async throws -> [UserSummary] {
        try await database.writer.read { db in
            let pattern = SQLPattern.likeEscaped(prefix.lowercased()) + "%"
            let hidden =
                hiding.isEmpty ? "" : " AND id NOT IN (\(hiding.sorted().map(String.init).joined(separator: ",")))"
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT username, first_name, last_name FROM users
                    WHERE (username_key LIKE ?1 ESCAPE '\\' OR first_name LIKE ?1 ESCAPE '\\'
                        OR last_name LIKE ?1 ESCAPE '\\')\(hidden) AND suspended_at IS NULL
                    ORDER BY username_key LIKE ?1 ESCAPE '\\' DESC, username_key LIMIT ?2
                    """, arguments: [pattern, limit]
            ).map { UserSummary(username: $0["username"], firstName: $0["first_name"], lastName: $0["last_name"]) }
        }
    }

    /// Groups the window's rows of `tweet_tags` (found by its created_at index).
    public func trending(since: Date, limit: Int) async throws -> [TrendingTag] {
        try await database.writer.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT tag, COUNT(*) AS tweetsCount, COUNT(DISTINCT author_id) AS usersCount
                        FROM tweet_tags WHERE created_at >= ? AND \(AccountStanding.notSuspendedText("author_id"))
                        GROUP BY tag ORDER BY usersCount DESC, tweetsCount DESC, tag LIMIT ?
                        """), arguments: [since, limit]
            ).map { TrendingTag(tag: $0["tag"], tweetsCount: $0["tweetsCount"], usersCount: $0["usersCount"]) }
        }
    }

    /// A term as an FTS5 string: quoted, so no word of a query is read as FTS5 syntax.
    static func quoted(_ term: String) -> String {
        "\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }

    /// The clause leaving out the tweets, and the reposts of the tweets, of `hiding`; nil when it is empty. The
    /// ids are numbers, written into the SQL, so any count of them takes one statement.
    private static func hidingClause(_ hiding: Set<Int64>) -> SQLQuery? {
        guard !hiding.isEmpty else { return nil }
        let list = hiding.sorted().map(String.init).joined(separator: ",")
        return """
            tweets.author_id NOT IN (\(unescaped: list)) \
            AND (original.author_id IS NULL OR original.author_id NOT IN (\(unescaped: list)))
            """
    }
}
