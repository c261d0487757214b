import Foundation
import TwitterCore
import TwitterRules

/// Tweets. Posts and reposts that arrive together are committed together by the database's own group commit
/// (`PostCommitting`), and every commit is reported to the observer in commit order once it is durable.
public struct TweetStore: TweetStoring {
    let database: ObservedDatabase
    private let committer: any PostCommitting

    /// Creates the store; posts go through `committer`, and committed changes are reported to `observer`.
    public init(database: any SQLDatabase, committer: any PostCommitting, observer: any CommitObserving) {
        self.database = ObservedDatabase(database: database, observer: observer)
        self.committer = committer
    }

    /// Queues the post for the next shared transaction before it first suspends, and waits until it is committed.
    public func post(_ draft: PostDraft) async throws -> Tweet {
        try await committed(.post(draft))
    }

    /// Queues the repost like a post: reposts are tweets, and ids are given out in commit order.
    public func repost(_ id: Int64, by userID: Int64) async throws -> Tweet {
        try await committed(.repost(id, by: userID))
    }

    /// Queues `post` at once, before the first suspension (what `tweets.post`'s `sharesCommits` rests on), and
    /// waits for its commit.
    private func committed(_ post: PendingPost) async throws -> Tweet {
        try await committer.enqueue(post).value()
    }

    /// Deletes `userID`'s repost of `id`'s original.
    public func unrepost(_ id: Int64, by userID: Int64) async throws -> Bool {
        try await database.orderedWrite { connection in
            guard let originalID = try await TweetRows.target(connection, of: id) else {
                throw TwitterError.notFound("Tweet \(id)")
            }
            guard
                let repostID = try await connection.value(
                    SQLQuery(RepostOf.self, originalID, userID), as: Int64.self)
            else { return (false, []) }
            return (
                true,
                try await TweetDeletion.delete(
                    repostID, authorID: userID, repostOf: originalID, inReplyTo: nil, in: connection)
            )
        }
    }

    /// Deletes one of the user's tweets, its reposts with it; a tweet in a conversation leaves a tombstone.
    public func deleteTweet(id: Int64, by userID: Int64) async throws {
        try await database.orderedWrite { connection in
            guard
                let row = try await connection.firstRow(
                    "SELECT author_id, repost_of_id, in_reply_to_id FROM tweets WHERE id = \(id)")
            else { throw TwitterError.notFound("Tweet \(id)") }
            try DeletionRule.requireAuthor(userID, of: (id, try row.column("author_id", as: Int64.self)))
            return (
                (),
                try await TweetDeletion.delete(
                    id, authorID: userID, repostOf: try row.column("repost_of_id"),
                    inReplyTo: try row.column("in_reply_to_id"), in: connection)
            )
        }
    }

    /// Newest first, by the primary key or the (author, id) index.
    public func tweets(_ query: TweetQuery) async throws -> [Tweet] {
        try await database.read { connection in
            var conditions = TweetRows.filter(query.timeline).map { [$0] } ?? []
            if let sinceID = query.sinceID { conditions.append("tweets.id > \(sinceID)") }
            if let maxID = query.maxID { conditions.append("tweets.id < \(maxID)") }
            if let hiding = TweetRows.hidingClause(query.hiding) { conditions.append(hiding) }
            let filter: SQLQuery = conditions.isEmpty ? "" : "WHERE \(conditions.joined(separator: " AND "))"
            return try await TweetRows.fetchAll(
                connection, TweetRows.select("\(filter) ORDER BY tweets.id DESC LIMIT \(query.limit)"))
        }
    }

    /// One tweet.
    public func tweet(id: Int64) async throws -> Tweet? {
        try await database.read { connection in try await TweetRows.fetchOne(connection, id: id) }
    }

    /// Oldest first after `sinceID`, for catching a subscription up.
    public func tweets(after sinceID: Int64, in timeline: Timeline, limit: Int) async throws -> [Tweet] {
        try await database.read { connection in
            let condition: SQLQuery = TweetRows.filter(timeline).map { " AND \($0)" } ?? ""
            return try await TweetRows.fetchAll(
                connection,
                TweetRows.select("WHERE tweets.id > \(sinceID)\(condition) ORDER BY tweets.id ASC LIMIT \(limit)"))
        }
    }

    /// By the primary key, in one statement.
    public func tweets(ids: [Int64]) async throws -> [Tweet] {
        guard !ids.isEmpty else { return [] }
        return try await database.read { connection in try await TweetRows.fetchAll(connection, ids: ids) }
    }

    /// Walks the (quote_of, id) index back from the cursor.
    public func quotes(of id: Int64, page: PageRequest) async throws -> IDPage<Tweet> {
        try await database.read { connection in
            var conditions: [SQLQuery] = ["tweets.quote_of = \(id)", "tweets.id < \(page.before ?? Int64.max)"]
            if let hiding = TweetRows.hidingClause(page.hiding) { conditions.append(hiding) }
            let query = TweetRows.select(
                "WHERE \(conditions.joined(separator: " AND ")) ORDER BY tweets.id DESC LIMIT \(page.limit + 1)")
            return IDPage(overfetched: try await TweetRows.fetchAll(connection, query), limit: page.limit, id: \.id)
        }
    }

    /// The tweet (the original, for a repost), the chain it answers, and the replies beneath it.
    public func thread(of id: Int64, descendantLimit: Int) async throws -> ThreadRows? {
        try await database.read { connection in
            guard let target = try await TweetRows.target(connection, of: id),
                let tweet = try await TweetRows.fetchOne(connection, id: target)
            else { return nil }
            return ThreadRows(
                ancestors: try await Self.ancestors(of: tweet, in: connection), tweet: tweet,
                descendants: try await Self.descendants(of: target, limit: descendantLimit, in: connection))
        }
    }

    /// The longest chain walked up; deeper conversations start at this ancestor.
    static let ancestorLimit = 1000

    private static func ancestors(of tweet: Tweet, in connection: any SQLConnection) async throws -> [ThreadEntry] {
        var chain: [ThreadEntry] = []
        var next = tweet.inReplyToID
        while let id = next, chain.count < ancestorLimit {
            if let parent = try await TweetRows.fetchOne(connection, id: id) {
                chain.append(.tweet(parent))
                next = parent.inReplyToID
            } else {
                // Deleted (a tombstone), or by a suspended account (a tweet the read leaves out): a placeholder
                // either way, through which the chain goes on.
                let parent = try await connection.firstRow(SQLQuery(ParentOfPlaceholder.self, id)).flatMap {
                    try $0.column("in_reply_to_id", as: Int64?.self)
                }
                chain.append(.deleted(id: id, inReplyToID: parent))
                next = parent
            }
        }
        return chain.reversed()
    }

    /// The replies beneath `id`, level by level, each level's parents a batch at a time, within the bounds of
    /// `ThreadRows.descendants` (at least `limit` + 1, so the caller can tell it was cut).
    private static func descendants(of id: Int64, limit: Int, in connection: any SQLConnection) async throws
        -> [ThreadEntry]
    {
        var found: [ThreadEntry] = []
        var level: [Int64] = [id]
        while !level.isEmpty, ThreadRows.room(read: found.count, readOfLevel: 0, limit: limit) > 0 {
            var next: [ThreadEntry] = []
            for start in stride(from: 0, to: level.count, by: ThreadRows.parentBatch) {
                let room = ThreadRows.room(read: found.count + next.count, readOfLevel: next.count, limit: limit)
                guard room > 0 else { break }
                let parents = Array(level[start..<min(start + ThreadRows.parentBatch, level.count)])
                let replies = try await connection.rows(SQLQuery(Replies.self, parents, Int64(room))).map(
                    TweetRows.tweet(from:))
                next += replies.map(ThreadEntry.tweet)
                // Deleted replies, and replies by suspended accounts, keep their place as placeholders, in id
                // order.
                let left = room - replies.count
                guard left > 0 else { continue }
                next += try await connection.rows(SQLQuery(PlaceholderReplies.self, parents, Int64(left))).map {
                    ThreadEntry.deleted(id: try $0.column("id"), inReplyToID: try $0.column("in_reply_to_id"))
                }
            }
            found += next
            level = next.map(\.id)
        }
        return found
    }

    /// What a placeholder in a chain answers: a tombstone's, or a suspended account's tweet's, parent.
    private enum ParentOfPlaceholder: SQLText {
        static let sql: SQLQuery = """
            SELECT in_reply_to_id FROM tweets WHERE id = \(param: 1)
            UNION ALL SELECT in_reply_to_id FROM tweet_tombstones WHERE id = \(param: 1)
            """
    }

    /// Up to `$2` replies to the tweets `$1`, oldest first.
    private enum Replies: SQLText {
        static let sql: SQLQuery = TweetRows.select(
            "WHERE tweets.in_reply_to_id \(isInParam: 1) ORDER BY tweets.id LIMIT \(param: 2)")
    }

    /// Up to `$2` deleted replies, and replies by suspended accounts, to the tweets `$1`, oldest first.
    private enum PlaceholderReplies: SQLText {
        static let sql: SQLQuery = """
            SELECT id, in_reply_to_id FROM tweet_tombstones WHERE in_reply_to_id \(isInParam: 1)
            UNION ALL SELECT id, in_reply_to_id FROM tweets
            WHERE in_reply_to_id \(isInParam: 1) AND \(AccountStanding.suspended("author_id"))
            ORDER BY id LIMIT \(param: 2)
            """
    }

    /// Account `$2`'s repost of tweet `$1`, if any.
    private enum RepostOf: SQLText {
        static let sql: SQLQuery = "SELECT id FROM tweets WHERE repost_of_id = \(param: 1) AND author_id = \(param: 2)"
    }
}
