import Foundation
import PostgresNIO
import TwitterCore

/// Likes in PostgreSQL, and what one reader has liked and reposted; each like is reported with the new counts.
struct LikeStore: LikeStoring {
    let database: PostgresStore
    let observer: any TweetCommitObserving

    /// Inserts the like unless it exists, counting it in the same transaction.
    func like(_ id: Int64, by userID: Int64) async throws -> TweetCounts {
        try await change(id, by: userID, liking: true)
    }

    /// Deletes the like if it exists, counting it in the same transaction.
    func unlike(_ id: Int64, by userID: Int64) async throws -> TweetCounts {
        try await change(id, by: userID, liking: false)
    }

    /// An ordered write: the read model applies likes and counts in commit order.
    private func change(_ id: Int64, by userID: Int64, liking: Bool) async throws -> TweetCounts {
        try await database.orderedWrite(reportingTo: observer) { connection in
            guard let target = try await TweetRows.target(connection, of: id),
                let author = try await Interactions.author(connection, of: target)
            else { throw TwitterError.notFound("Tweet \(id)") }
            let changed: Int64?
            if liking {
                try await Interactions.requireNoBlock(connection, actor: userID, other: author.id)
                changed = try await connection.value(
                    """
                    INSERT INTO tweet_like (tweet_id, user_id, created_at)
                    VALUES (\(target), \(userID), \(Date().storagePrecision)) ON CONFLICT DO NOTHING RETURNING id
                    """, as: Int64.self)
            } else {
                changed = try await connection.value(
                    "DELETE FROM tweet_like WHERE tweet_id = \(target) AND user_id = \(userID) RETURNING id",
                    as: Int64.self)
            }
            // Liking twice, or taking back a like never made, changes nothing and reports nothing.
            guard changed != nil,
                let counts = try await TweetRows.adjust(connection, target, .likes, by: liking ? 1 : -1)
            else {
                return (try await TweetRows.counts(connection, id: target) ?? TweetCounts(), [])
            }
            guard liking else {
                try await Interactions.withdraw(connection, .like, by: userID, to: author.id, tweetID: target)
                return (counts, [.unliked(id: target, userID: userID), .counted(id: target, counts)])
            }
            var events: [TweetEvent] = [.liked(id: target, userID: userID), .counted(id: target, counts)]
            let actor = try await Interactions.account(connection, userID)
            if let notified = try await Interactions.notify(
                connection, author.id, of: .like, by: actor,
                tweet: try await TweetRows.fetchOne(connection, id: target),
                at: Date().storagePrecision)
            {
                events.append(notified)
            }
            return (counts, events)
        }
    }

    /// Walks the (tweet_id, id) index back from the cursor; nil when the tweet is missing or hidden by its
    /// author's suspension.
    func likers(of id: Int64, page: PageRequest) async throws -> UserPage? {
        try await database.read { connection in
            guard let target = try await TweetRows.target(connection, of: id) else { return nil }
            var query = SQL()
            let hiding =
                page.hiding.isEmpty ? "" : " AND NOT tweet_like.user_id = ANY(\(query.bind(page.hiding.sorted())))"
            // One more than asked: whether it exists says if there is a next page.
            query.append(
                """
                SELECT tweet_like.id AS position, users.username, users.first_name, users.last_name
                FROM tweet_like JOIN users ON users.id = tweet_like.user_id
                WHERE tweet_like.tweet_id = \(query.bind(target)) AND tweet_like.id < \(query.bind(page.before ?? Int64.max))\(hiding)
                    AND users.suspended_at IS NULL
                ORDER BY tweet_like.id DESC LIMIT \(query.bind(page.limit + 1))
                """)
            let rows = try await connection.rows(query.query)
            let shown = rows.prefix(page.limit)
            return UserPage(
                users: try shown.map {
                    UserSummary(
                        username: try $0.column("username"), firstName: try $0.column("first_name"),
                        lastName: try $0.column("last_name"))
                },
                next: rows.count > page.limit ? try shown.last?.column("position", as: Int64.self) : nil)
        }
    }

    /// Every like and repost of the reader, in one round trip.
    func marks(of userID: Int64) async throws -> ReaderMarks {
        try await database.read { connection in
            let rows = try await connection.rows(
                """
                SELECT true AS liked, tweet_id AS id FROM tweet_like WHERE user_id = \(userID)
                UNION ALL
                SELECT false, repost_of_id FROM tweet WHERE author_id = \(userID) AND repost_of_id IS NOT NULL
                """)
            var marks = ReaderMarks()
            for row in rows {
                let id = try row.column("id", as: Int64.self)
                if try row.column("liked", as: Bool.self) { marks.liked.insert(id) } else { marks.reposted.insert(id) }
            }
            return marks
        }
    }
}
