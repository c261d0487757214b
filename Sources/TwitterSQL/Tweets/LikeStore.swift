import Foundation
import TwitterCore
import TwitterRules

/// Likes, and what one reader has liked and reposted; each like is reported with the new counts.
public struct LikeStore: LikeStoring {
    let database: ObservedDatabase

    /// Creates the store; committed changes are reported to `observer`.
    public init(database: any SQLDatabase, observer: any CommitObserving) {
        self.database = ObservedDatabase(database: database, observer: observer)
    }

    /// Inserts the like unless it exists, counting it in the same transaction.
    public func like(_ id: Int64, by userID: Int64) async throws -> TweetCounts {
        try await change(id, by: userID, liking: true)
    }

    /// Deletes the like if it exists, counting it in the same transaction.
    public func unlike(_ id: Int64, by userID: Int64) async throws -> TweetCounts {
        try await change(id, by: userID, liking: false)
    }

    /// An ordered write: the read model applies likes and counts in commit order. Reads the facts `LikeRule`
    /// decides on, then writes the like or takes it back.
    private func change(_ id: Int64, by userID: Int64, liking: Bool) async throws -> TweetCounts {
        try await database.orderedWrite { connection in
            // Taking back a like needs no sight of the tweet; the server's read path asks for it first anyway.
            let target = try await Interactions.target(connection, of: id, for: liking ? userID : nil)
            let plan = try LikeRule.decide(id, by: userID, liking: liking, target: target)
            let changed: Int64?
            if liking {
                changed = try await connection.value(
                    SQLQuery(Insert.self, plan.tweetID, userID, connection.dialect.stored(Date())), as: Int64.self)
            } else {
                changed = try await connection.value(SQLQuery(Delete.self, plan.tweetID, userID), as: Int64.self)
            }
            // Liking twice, or taking back a like never made, changes nothing and reports nothing.
            guard changed != nil,
                let counts = try await TweetRows.adjust(connection, plan.tweetID, .likes, by: liking ? 1 : -1)
            else {
                return (try await TweetRows.counts(connection, id: plan.tweetID) ?? TweetCounts(), [])
            }
            if let author = plan.withdrawsFrom {
                try await NotificationRows.withdraw(connection, .like, by: userID, to: author, tweetID: plan.tweetID)
            }
            var notification: (ActivityNotification, recipientID: Int64)?
            if let planned = plan.notification {
                notification = try await NotificationRows.insert(
                    connection, planned, by: try await NotificationRows.account(connection, userID),
                    tweet: try await TweetRows.fetchOne(connection, id: plan.tweetID),
                    at: connection.dialect.stored(Date()))
            }
            return (
                counts, LikeRule.events(plan, by: userID, liking: liking, counts: counts, notification: notification)
            )
        }
    }

    private enum Insert: SQLText {
        static let sql: SQLQuery = """
            INSERT INTO tweet_likes (tweet_id, user_id, created_at) VALUES (\(param: 1), \(param: 2), \(param: 3))
            ON CONFLICT DO NOTHING RETURNING id
            """
    }

    private enum Delete: SQLText {
        static let sql: SQLQuery =
            "DELETE FROM tweet_likes WHERE tweet_id = \(param: 1) AND user_id = \(param: 2) RETURNING id"
    }

    /// Walks the (tweet_id, id) index back from the cursor; nil when the tweet is missing or hidden by its
    /// author's suspension.
    public func likers(of id: Int64, page: PageRequest) async throws -> UserPage? {
        try await database.read { connection in
            guard let target = try await TweetRows.target(connection, of: id) else { return nil }
            return try await UserPageQuery.fetch(connection, .likes.reversed, from: target, page: page)
        }
    }

    /// Walks the tweets' (repost_of_id, author_id) index from the original; nil as `likers`.
    public func reposters(of id: Int64, page: PageRequest) async throws -> UserPage? {
        try await database.read { connection in
            guard let target = try await TweetRows.target(connection, of: id) else { return nil }
            return try await UserPageQuery.fetch(connection, .reposts.reversed, from: target, page: page)
        }
    }

    /// Walks the likes' (user_id, id) index back from the cursor, joining each like's tweet as every read does.
    public func liked(by userID: Int64, page: PageRequest) async throws -> BookmarkPage {
        try await database.read { connection in
            var conditions: [SQLQuery] = ["liking.user_id = \(userID)", "liking.id < \(page.before ?? Int64.max)"]
            if let hiding = TweetRows.hidingClause(page.hiding) { conditions.append(hiding) }
            // One more than asked: whether it exists says if there is a next page.
            let query = TweetRows.select(
                "WHERE \(conditions.joined(separator: " AND ")) ORDER BY liking.id DESC LIMIT \(Int64(page.limit + 1))",
                joining: "JOIN tweet_likes AS liking ON liking.tweet_id = tweets.id")
            let tweets = try await TweetRows.fetchAll(connection, query)
            let shown = Array(tweets.prefix(page.limit))
            guard tweets.count > page.limit, let last = shown.last else {
                return BookmarkPage(tweets: shown, next: nil)
            }
            let position = try await connection.value(
                "SELECT id FROM tweet_likes WHERE user_id = \(userID) AND tweet_id = \(last.id)", as: Int64.self)
            return BookmarkPage(tweets: shown, next: position)
        }
    }

    /// Every like, repost and bookmark of the reader, in one round trip.
    public func marks(of userID: Int64) async throws -> ReaderMarks {
        try await database.read { connection in
            try await TaggedIDs.read(
                connection, SQLQuery(Marks.self, userID), into: ReaderMarks(),
                sets: ["liked": \.liked, "reposted": \.reposted, "bookmarked": \.bookmarked])
        }
    }

    private enum Marks: SQLText {
        static let sql: SQLQuery = """
            SELECT 'liked' AS kind, tweet_id AS id FROM tweet_likes WHERE user_id = \(param: 1)
            UNION ALL
            SELECT 'reposted', repost_of_id FROM tweets WHERE author_id = \(param: 1) AND repost_of_id IS NOT NULL
            UNION ALL
            SELECT 'bookmarked', tweet_id FROM bookmarks WHERE user_id = \(param: 1)
            """
    }
}
