import TwitterCore
import TwitterRules

/// Bookmarks; each change is reported to the observer for the reader's marks alone.
public struct BookmarkStore: BookmarkStoring {
    let database: ObservedDatabase

    /// Creates the store; committed changes are reported to `observer`.
    public init(database: any SQLDatabase, observer: any CommitObserving) {
        self.database = ObservedDatabase(database: database, observer: observer)
    }

    /// Inserts the bookmark unless it exists.
    public func bookmark(_ id: Int64, by userID: Int64) async throws -> Bool {
        try await change(id, by: userID, bookmarking: true)
    }

    /// Deletes the bookmark if it exists.
    public func unbookmark(_ id: Int64, by userID: Int64) async throws -> Bool {
        try await change(id, by: userID, bookmarking: false)
    }

    /// An ordered write: the read model applies the reader's marks in commit order. Reads the facts
    /// `BookmarkRule` decides on, then writes the bookmark or takes it back.
    private func change(_ id: Int64, by userID: Int64, bookmarking: Bool) async throws -> Bool {
        try await database.orderedWrite { connection in
            // Taking a bookmark back needs no sight of the tweet, like an unlike.
            let target = try await Interactions.target(connection, of: id, for: bookmarking ? userID : nil)
            let plan = try BookmarkRule.decide(id, by: userID, bookmarking: bookmarking, target: target)
            let changed =
                try await bookmarking
                ? Relationship.bookmarks.insert(connection, of: userID, to: plan.tweetID)
                : Relationship.bookmarks.delete(connection, of: userID, to: plan.tweetID)
            return (changed, BookmarkRule.events(plan, by: userID, bookmarking: bookmarking, changed: changed))
        }
    }

    /// Walks the (user_id, id) index back from the cursor, joining each bookmark's tweet as every read does.
    public func bookmarks(of userID: Int64, page: PageRequest) async throws -> BookmarkPage {
        try await database.read { connection in
            var conditions: [SQLQuery] = [
                "bookmark.user_id = \(userID)", "bookmark.id < \(page.before ?? Int64.max)",
            ]
            if let hiding = TweetRows.hidingClause(page.hiding) { conditions.append(hiding) }
            // One more than asked: whether it exists says if there is a next page.
            let query = TweetRows.select(
                "WHERE \(conditions.joined(separator: " AND ")) ORDER BY bookmark.id DESC LIMIT \(Int64(page.limit + 1))",
                joining: "JOIN bookmarks AS bookmark ON bookmark.tweet_id = tweets.id")
            let tweets = try await TweetRows.fetchAll(connection, query)
            let shown = Array(tweets.prefix(page.limit))
            guard tweets.count > page.limit, let last = shown.last else {
                return BookmarkPage(tweets: shown, next: nil)
            }
            let position = try await connection.value(
                "SELECT id FROM bookmarks WHERE user_id = \(userID) AND tweet_id = \(last.id)", as: Int64.self)
            return BookmarkPage(tweets: shown, next: position)
        }
    }
}
