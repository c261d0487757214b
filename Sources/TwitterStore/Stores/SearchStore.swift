import Foundation
import GRDB
import TwitterCore

/// Search in SQLite: tweets through the FTS5 index `tweetSearch` (kept by triggers in every post's
/// transaction), people by prefix, and tags from `tweetTag`.
public struct SearchStore: TweetSearching {
    let database: AppDatabase

    /// Creates the store.
    public init(database: AppDatabase) {
        self.database = database
    }

    /// One statement. With words or phrases it starts from the text index's matches ranked by bm25 (FTS5's
    /// `rank`), newest first among equals; without, it walks the tweets newest first.
    public func search(_ query: SearchQuery, authorID: Int64?, hiding: Set<Int64>, limit: Int, offset: Int)
        async throws -> [Tweet]
    {
        try await database.writer.read { db in
            var conditions: [String] = []
            var arguments: StatementArguments = []
            if let authorID {
                conditions.append("tweet.authorId = ?")
                arguments += [authorID]
            }
            for tag in query.tags {
                conditions.append("tweet.id IN (SELECT tweetId FROM tweetTag WHERE tag = ?)")
                arguments += [tag]
            }
            if let hiding = TweetRow.hidingClause(hiding) { conditions.append(hiding) }
            guard query.hasTextTerms else {
                conditions.append("tweet.repostOfId IS NULL")
                if !query.excluded.isEmpty {
                    conditions.append("tweet.id NOT IN (SELECT rowid FROM tweetSearch WHERE tweetSearch MATCH ?)")
                    arguments += [query.excluded.map(Self.quoted).joined(separator: " OR ")]
                }
                return try TweetRow.fetchAll(
                    db, "WHERE \(conditions.joined(separator: " AND ")) ORDER BY tweet.id DESC LIMIT ? OFFSET ?",
                    arguments + [limit, offset], cached: hiding.isEmpty)
            }
            var match = (query.words + query.phrases).map(Self.quoted).joined(separator: " AND ")
            for excluded in query.excluded { match += " NOT " + Self.quoted(excluded) }
            // With nothing else to filter by, the page is cut inside the index's ranking, before any join.
            let page = conditions.isEmpty ? "ORDER BY rank, rowid DESC LIMIT \(limit) OFFSET \(offset)" : ""
            let hits = """
                JOIN (SELECT rowid AS hit, rank AS score FROM tweetSearch WHERE tweetSearch MATCH ? \(page)) AS hits
                    ON hits.hit = tweet.id
                """
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let sql = TweetRow.select(
                "\(filter) ORDER BY hits.score, tweet.id DESC LIMIT \(limit) OFFSET \(conditions.isEmpty ? 0 : offset)",
                joining: hits)
            return try Row.fetchAll(db.makeStatement(sql: sql), arguments: [match] + arguments).map(
                TweetRow.tweet(from:))
        }
    }

    /// A prefix scan over the usernames and names, case-insensitive by the folded username key and `LIKE`.
    public func users(withPrefix prefix: String, hiding: Set<Int64>, limit: Int) async throws -> [UserSummary] {
        try await database.writer.read { db in
            let pattern = Self.likeEscaped(prefix.lowercased()) + "%"
            let hidden =
                hiding.isEmpty ? "" : " AND id NOT IN (\(hiding.sorted().map(String.init).joined(separator: ",")))"
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT username, firstName, lastName FROM user
                    WHERE (usernameKey LIKE ?1 ESCAPE '\\' OR firstName LIKE ?1 ESCAPE '\\'
                        OR lastName LIKE ?1 ESCAPE '\\')\(hidden)
                    ORDER BY usernameKey LIKE ?1 ESCAPE '\\' DESC, usernameKey LIMIT ?2
                    """, arguments: [pattern, limit]
            ).map { UserSummary(username: $0["username"], firstName: $0["firstName"], lastName: $0["lastName"]) }
        }
    }

    /// Groups the window's rows of `tweetTag` (found by its createdAt index).
    public func trending(since: Date, limit: Int) async throws -> [TrendingTag] {
        try await database.writer.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT tag, COUNT(*) AS tweetsCount, COUNT(DISTINCT authorId) AS usersCount
                        FROM tweetTag WHERE createdAt >= ?
                        GROUP BY tag ORDER BY usersCount DESC, tweetsCount DESC, tag LIMIT ?
                        """), arguments: [since, limit]
            ).map { TrendingTag(tag: $0["tag"], tweetsCount: $0["tweetsCount"], usersCount: $0["usersCount"]) }
        }
    }

    /// A term as an FTS5 string: quoted, so no word of a query is read as FTS5 syntax.
    static func quoted(_ term: String) -> String {
        "\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}
