import Foundation
import GRDB
import TwitterCore
import TwitterSQL
import TwitterRules

/// Tweets in SQLite. Posts and reposts that arrive together are committed together (group commit), and every
/// commit is reported to the observer in commit order once it is on disk.
public struct TweetStore: TweetStoring {
    let database: AppDatabase
    private let committer: PostCommitter
    private let reporter: CommitReporter

    /// Creates the store; committed changes are reported to `observer`.
    public init(database: AppDatabase, observer: any TweetCommitObserving) {
        self.database = database
        committer = PostCommitter(database: database, observer: observer)
        reporter = CommitReporter(database: database, observer: observer)
    }

    /// Queues the post for the next shared transaction at once; the returned wait ends once it is committed.
    public func post(_ draft: PostDraft) -> @Sendable () async throws -> Tweet {
        let outcome = committer.enqueue(.post(draft))
        return { try await outcome.value() }
    }

    /// Queues the repost like a post: reposts are tweets, and ids are given out in commit order.
    public func repost(_ id: Int64, by userID: Int64) -> @Sendable () async throws -> Tweet {
        let outcome = committer.enqueue(.repost(id, by: userID))
        return { try await outcome.value() }
    }

    /// Deletes `userID`'s repost of `id`'s original.
    public func unrepost(_ id: Int64, by userID: Int64) async throws -> Bool {
        try await reporter.write { db in
            guard let originalID = try TweetRows.target(db, of: id) else { throw TwitterError.notFound("Tweet \(id)") }
            guard
                let repostID = try Int64.fetchOne(
                    db, sql: "SELECT id FROM tweets WHERE repost_of_id = ? AND author_id = ?",
                    arguments: [originalID, userID])
            else { return (false, []) }
            return (true, try Self.delete(repostID, authorID: userID, repostOf: originalID, inReplyTo: nil, in: db))
        }
    }

    /// Deletes one of the user's tweets, its reposts with it; a tweet in a conversation leaves a tombstone.
    public func deleteTweet(id: Int64, by userID: Int64) async throws {
        try await reporter.write { db in
            let sql = "SELECT author_id, repost_of_id, in_reply_to_id FROM tweets WHERE id = ?"
            guard let row = try Row.fetchOne(db, sql: sql, arguments: [id]) else {
                throw TwitterError.notFound("Tweet \(id)")
            }
            try DeletionRule.requireAuthor(userID, of: (id, row["author_id"]))
            return (
                (),
                try Self.delete(
                    id, authorID: userID, repostOf: row["repost_of_id"], inReplyTo: row["in_reply_to_id"], in: db)
            )
        }
    }

    /// Deletes tweet `id` as `DeletionRule` plans it and returns the events.
    static func delete(
        _ id: Int64, authorID: Int64, repostOf original: Int64?, inReplyTo parent: Int64?, in db: Database
    ) throws -> [TweetEvent] {
        let reposts = try Row.fetchAll(
            db, sql: "SELECT id, author_id FROM tweets WHERE repost_of_id = ? ORDER BY id", arguments: [id]
        ).map { (id: $0["id"] as Int64, authorID: $0["author_id"] as Int64) }
        var hasReplies = false
        if DeletionRule.mayKeepItsPlace(repostOf: original) {
            hasReplies =
                try Bool.fetchOne(
                    db,
                    sql: """
                        SELECT EXISTS(SELECT 1 FROM tweets WHERE in_reply_to_id = ?1)
                            OR EXISTS(SELECT 1 FROM tweet_tombstones WHERE in_reply_to_id = ?1)
                        """, arguments: [id]) ?? false
        }
        let quoteOf = try Int64?.fetchOne(db, sql: "SELECT quote_of FROM tweets WHERE id = ?", arguments: [id]) ?? nil
        let facts = DeletionFacts(
            id: id, authorID: authorID, repostOf: original, inReplyTo: parent, reposts: reposts,
            hasReplies: hasReplies, authorWithdrawn: try Contributions.areWithdrawn(db, of: authorID), quoteOf: quoteOf)
        let plan = DeletionRule.plan(facts)
        if let tombstone = plan.tombstone {
            try db.execute(
                sql: "INSERT OR REPLACE INTO tweet_tombstones (id, in_reply_to_id) VALUES (?, ?)",
                arguments: [tombstone.id, tombstone.inReplyToID])
        }
        try db.execute(sql: "DELETE FROM tweets WHERE id = ?", arguments: [id])  // reposts and likes go with it
        var counted: [(id: Int64, counts: TweetCounts)] = []
        for (tweetID, counter) in plan.counters {
            if let counts = try TweetRows.adjust(db, tweetID, counter, by: -1) { counted.append((tweetID, counts)) }
        }
        return DeletionRule.events(facts, counted: counted)
    }

    /// Newest first, by the primary key or the (author, id) index.
    public func tweets(_ query: TweetQuery) async throws -> [Tweet] {
        try await database.writer.read { db in
            let (timeline, timelineArguments) = TweetRows.filter(query.timeline)
            var conditions = timeline.map { [$0] } ?? []
            var arguments = timelineArguments
            if let sinceID = query.sinceID {
                conditions.append("tweets.id > ?")
                arguments += [sinceID]
            }
            if let maxID = query.maxID {
                conditions.append("tweets.id < ?")
                arguments += [maxID]
            }
            if let hiding = TweetRows.hidingClause(query.hiding) { conditions.append(hiding) }
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            arguments += [query.limit]
            return try TweetRows.fetchAll(
                db, "\(filter) ORDER BY tweets.id DESC LIMIT ?", arguments, cached: query.hiding.isEmpty)
        }
    }

    /// One tweet.
    public func tweet(id: Int64) async throws -> Tweet? {
        try await database.writer.read { db in try TweetRows.fetchOne(db, id: id) }
    }

    /// By the primary key, in one statement.
    public func tweets(ids: [Int64]) async throws -> [Tweet] {
        guard !ids.isEmpty else { return [] }
        return try await database.writer.read { db in
            try TweetRows.fetchAll(
                db, "WHERE tweets.id IN (\(databaseQuestionMarks(count: ids.count)))", StatementArguments(ids),
                cached: false)
        }
    }

    /// Oldest first after `sinceID`, for catching a subscription up.
    public func tweets(after sinceID: Int64, in timeline: Timeline, limit: Int) async throws -> [Tweet] {
        try await database.writer.read { db in
            let (condition, timelineArguments) = TweetRows.filter(timeline)
            let filter = "WHERE tweets.id > ?" + (condition.map { " AND " + $0 } ?? "")
            return try TweetRows.fetchAll(
                db, "\(filter) ORDER BY tweets.id ASC LIMIT ?", [sinceID] + timelineArguments + [limit])
        }
    }

    /// The tweet (the original, for a repost), the chain it answers, and the replies beneath it.
    public func thread(of id: Int64, descendantLimit: Int) async throws -> ThreadRows? {
        try await database.writer.read { db in
            guard let target = try TweetRows.target(db, of: id), let tweet = try TweetRows.fetchOne(db, id: target)
            else { return nil }
            return ThreadRows(
                ancestors: try Self.ancestors(of: tweet, in: db), tweet: tweet,
                descendants: try Self.descendants(of: target, limit: descendantLimit, in: db))
        }
    }

    /// Walks the (quote_of, id) index back from the cursor.
    public func quotes(of id: Int64, page: PageRequest) async throws -> IDPage<Tweet> {
        try await database.writer.read { db in
            var conditions = ["tweets.quote_of = ?", "tweets.id < ?"]
            if let hiding = TweetRows.hidingClause(page.hiding) { conditions.append(hiding) }
            let sql = "WHERE \(conditions.joined(separator: " AND ")) ORDER BY tweets.id DESC LIMIT ?"
            let tweets = try TweetRows.fetchAll(
                db, sql, [id, page.before ?? Int64.max, page.limit + 1], cached: page.hiding.isEmpty)
            return IDPage(overfetched: tweets, limit: page.limit, id: \.id)
        }
    }

    /// The longest chain walked up; deeper conversations start at this ancestor.
    static let ancestorLimit = 1000

    private static func ancestors(of tweet: Tweet, in db: Database) throws -> [ThreadEntry] {
        var chain: [ThreadEntry] = []
        var next = tweet.inReplyToID
        while let id = next, chain.count < ancestorLimit {
            if let parent = try TweetRows.fetchOne(db, id: id) {
                chain.append(.tweet(parent))
                next = parent.inReplyToID
            } else {
                // Deleted (a tombstone), or by a suspended account (a tweet the read leaves out): a placeholder
                // either way, through which the chain goes on.
                let parent = try Int64?.fetchOne(
                    db,
                    sql: """
                        SELECT in_reply_to_id FROM tweets WHERE id = ?1
                        UNION ALL SELECT in_reply_to_id FROM tweet_tombstones WHERE id = ?1
                        """, arguments: [id])
                chain.append(.deleted(id: id, inReplyToID: parent ?? nil))
                next = parent ?? nil
            }
        }
        return chain.reversed()
    }

    /// The replies beneath `id`, level by level, each level's parents a batch at a time, within the bounds of
    /// `ThreadRows.descendants` (at least `limit` + 1, so the caller can tell it was cut).
    private static func descendants(of id: Int64, limit: Int, in db: Database) throws -> [ThreadEntry] {
        var found: [ThreadEntry] = []
        var level: [Int64] = [id]
        while !level.isEmpty, ThreadRows.room(read: found.count, readOfLevel: 0, limit: limit) > 0 {
            var next: [ThreadEntry] = []
            for start in stride(from: 0, to: level.count, by: ThreadRows.parentBatch) {
                let room = ThreadRows.room(read: found.count + next.count, readOfLevel: next.count, limit: limit)
                guard room > 0 else { break }
                let parents = Array(level[start..<min(start + ThreadRows.parentBatch, level.count)])
                let marks = databaseQuestionMarks(count: parents.count)
                let arguments = StatementArguments(parents)
                let replies = try TweetRows.fetchAll(
                    db, "WHERE tweets.in_reply_to_id IN (\(marks)) ORDER BY tweets.id LIMIT ?", arguments + [room])
                next += replies.map(ThreadEntry.tweet)
                // Deleted replies, and replies by suspended accounts, keep their place as placeholders.
                let left = room - replies.count
                guard left > 0 else { continue }
                next += try Row.fetchAll(
                    db,
                    sql: """
                        SELECT id, in_reply_to_id FROM tweet_tombstones WHERE in_reply_to_id IN (\(marks))
                        UNION ALL SELECT id, in_reply_to_id FROM tweets
                        WHERE in_reply_to_id IN (\(marks)) AND \(AccountStanding.suspended("author_id"))
                        ORDER BY id LIMIT ?
                        """,
                    arguments: arguments + arguments + [left]
                ).map { ThreadEntry.deleted(id: $0["id"], inReplyToID: $0["in_reply_to_id"]) }
            }
            found += next
            level = next.map(\.id)
        }
        return found
    }
}
