import Foundation
import GRDB
import TwitterCore
import TwitterRules

/// Bookmarks in SQLite; each change is reported to the observer for the reader's marks alone.
public struct BookmarkStore: BookmarkStoring {
    let database: AppDatabase
    private let reporter: CommitReporter

    /// Creates the store; committed bookmarks are reported to `observer`.
    public init(database: AppDatabase, observer: any TweetCommitObserving) {
        self.database = database
        reporter = CommitReporter(database: database, observer: observer)
    }

    /// Inserts the bookmark unless it exists.
    public func bookmark(_ id: Int64, by userID: Int64) async throws -> Bool {
        try await change(id, by: userID, bookmarking: true)
    }

    /// Deletes the bookmark if it exists.
    public func unbookmark(_ id: Int64, by userID: Int64) async throws -> Bool {
        try await change(id, by: userID, bookmarking: false)
    }

    /// Reads the facts `BookmarkRule` decides on, then writes the bookmark or takes it back.
    private func change(_ id: Int64, by userID: Int64, bookmarking: Bool) async throws -> Bool {
        try await reporter.write { db in
            // Taking a bookmark back needs no sight of the tweet, like an unlike.
            let target = try Interactions.target(db, of: id, for: bookmarking ? userID : nil)
            let plan = try BookmarkRule.decide(id, by: userID, bookmarking: bookmarking, target: target)
            if bookmarking {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO bookmarks (user_id, tweet_id, created_at) VALUES (?, ?, ?)",
                    arguments: [userID, plan.tweetID, Date().storagePrecision])
            } else {
                try db.execute(
                    sql: "DELETE FROM bookmarks WHERE user_id = ? AND tweet_id = ?", arguments: [userID, plan.tweetID])
            }
            let changed = db.changesCount > 0
            return (changed, BookmarkRule.events(plan, by: userID, bookmarking: bookmarking, changed: changed))
        }
    }

    /// Walks the (user_id, id) index back from the cursor, joining each bookmark's tweet as every read does.
    public func bookmarks(of userID: Int64, page: PageRequest) async throws -> BookmarkPage {
        try await database.writer.read { db in
            var conditions = ["bookmark.user_id = ?", "bookmark.id < ?"]
            if let hiding = TweetRows.hidingClause(page.hiding) { conditions.append(hiding) }
            let sql = "WHERE \(conditions.joined(separator: " AND ")) ORDER BY bookmark.id DESC LIMIT ?"
            // One more than asked: whether it exists says if there is a next page.
            let tweets = try TweetRows.fetchAll(
                db, sql, [userID, page.before ?? Int64.max, page.limit + 1], cached: page.hiding.isEmpty,
                joining: "JOIN bookmarks AS bookmark ON bookmark.tweet_id = tweets.id")
            let shown = Array(tweets.prefix(page.limit))
            guard tweets.count > page.limit, let last = shown.last else {
                return BookmarkPage(tweets: shown, next: nil)
            }
            let position = try Int64.fetchOne(
                db, sql: "SELECT id FROM bookmarks WHERE user_id = ? AND tweet_id = ?", arguments: [userID, last.id])
            return BookmarkPage(tweets: shown, next: position)
        }
    }
}
