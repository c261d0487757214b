import Foundation
import GRDB
import TwitterCore

/// Writes the posts of one group commit inside its transaction, collecting the events to report once it is
/// committed: each new tweet, and the new counts of the tweets a reply or repost changed.
struct BatchWriter {
    let db: Database
    let now: Date
    /// Formatted once per batch: Foundation's date formatting was a third of the writer's time.
    private let storedNow: DatabaseValue
    private let windowStart: Date
    /// A batch is usually a few authors posting many times: each name is looked up once per batch.
    private var usernames: [Int64: String] = [:]
    private(set) var events: [TweetEvent] = []

    init(db: Database, now: Date) {
        self.db = db
        self.now = now
        storedNow = now.databaseValue
        windowStart = now.addingTimeInterval(-PostDraft.idempotencyWindow)
    }

    /// Inserts a tweet or reply, or returns the earlier tweet with the same idempotency key.
    mutating func post(_ draft: PostDraft) throws -> Tweet {
        if let key = draft.idempotencyKey {
            if let earlier = try earlierPost(authorID: draft.authorID, key: key) { return earlier }
            // A key older than the window may be used again: the old tweet lets go of it.
            try db.execute(
                sql: "UPDATE tweet SET idempotencyKey = NULL WHERE authorId = ? AND idempotencyKey = ?",
                arguments: [draft.authorID, key])
        }
        var parent: Tweet.Author?
        var parentID: Int64?
        if let answered = draft.inReplyToID {
            // A reply to a repost answers its original.
            let (target, author) = try Interactions.target(db, of: answered, for: draft.authorID)
            (parent, parentID) = (author, target)
        }
        let found = EntityScanner.scan(draft.text)
        let mentioned = try mentionedAccounts(found.mentions)
        try db.cachedStatement(
            sql: """
                INSERT INTO tweet (authorId, text, createdAt, idempotencyKey, inReplyToId) VALUES (?, ?, ?, ?, ?)
                """
        )
        .execute(arguments: [draft.authorID, draft.text, storedNow, draft.idempotencyKey, parentID])
        let tweet = Tweet(
            id: db.lastInsertedRowID, author: try author(draft.authorID), text: draft.text, createdAt: now,
            inReplyToID: parentID,
            entities: TweetEntities(found: found, mentioned: mentioned.map(\.username)))
        events.append(.posted(tweet))
        try TweetMentionRows.insert(db, tweetID: tweet.id, accountIDs: mentioned.map(\.id))
        try TweetTagRows.insert(
            db, tweetID: tweet.id, authorID: draft.authorID, createdAt: storedNow, hashtags: found.hashtags)
        if let parentID { try count(parentID, .repliesCount, by: 1) }
        // One notification per account: the author answered hears of a reply, not also of its mention.
        if let parent,
            let event = try Interactions.notify(db, parent.id, of: .reply, by: tweet.author, tweet: tweet, at: now)
        {
            events.append(event)
        }
        for account in mentioned where account.id != parent?.id {
            if let event = try Interactions.notify(
                db, account.id, of: .mention, by: tweet.author, tweet: tweet, at: now)
            {
                events.append(event)
            }
        }
        return tweet
    }

    /// The accounts among `candidates` that exist, once each, as they spell their names.
    private func mentionedAccounts(_ candidates: [TweetEntities.Mention]) throws -> [Tweet.Author] {
        let keys = Array(Set(candidates.map { EntityScanner.usernameKey($0.username) }))
        guard !keys.isEmpty else { return [] }
        return try Row.fetchAll(
            db, sql: "SELECT id, username FROM user WHERE usernameKey IN (\(databaseQuestionMarks(count: keys.count)))",
            arguments: StatementArguments(keys)
        ).map { Tweet.Author(id: $0["id"], username: $0["username"]) }
    }

    /// Inserts `userID`'s repost of `id`'s original, or returns the one it already made.
    mutating func repost(_ id: Int64, by userID: Int64) throws -> Tweet {
        let (originalID, originalAuthor) = try Interactions.target(db, of: id, for: userID)
        if let existing = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM tweet WHERE repostOfId = ? AND authorId = ?"),
            arguments: [originalID, userID]), let repost = try TweetRow.fetchOne(db, id: existing)
        {
            return repost
        }
        try db.cachedStatement(sql: "INSERT INTO tweet (authorId, text, createdAt, repostOfId) VALUES (?, '', ?, ?)")
            .execute(arguments: [userID, storedNow, originalID])
        let repostID = db.lastInsertedRowID
        try count(originalID, .repostsCount, by: 1)
        guard let repost = try TweetRow.fetchOne(db, id: repostID) else {
            throw TwitterError(.internal, "The repost just written is missing")
        }
        // The posting goes before the count: readers place the repost, then update every copy of the original.
        events.insert(.posted(repost), at: events.count - 1)
        if let event = try Interactions.notify(
            db, originalAuthor.id, of: .repost, by: repost.author, tweet: repost, at: now)
        {
            events.append(event)
        }
        return repost
    }

    /// Moves one of tweet `id`'s counters and records its new counts.
    private mutating func count(_ id: Int64, _ counter: TweetRow.Counter, by change: Int) throws {
        if let counts = try TweetRow.adjust(db, id, counter, by: change) { events.append(.counted(id: id, counts)) }
    }

    private mutating func author(_ id: Int64) throws -> Tweet.Author {
        let username =
            try usernames[id]
            ?? String.fetchOne(db.cachedStatement(sql: "SELECT username FROM user WHERE id = ?"), arguments: [id]) ?? ""
        usernames[id] = username
        return Tweet.Author(id: id, username: username)
    }

    private func earlierPost(authorID: Int64, key: String) throws -> Tweet? {
        try TweetRow.fetchAll(
            db, "WHERE tweet.authorId = ? AND tweet.idempotencyKey = ? AND tweet.createdAt >= ?",
            [authorID, key, windowStart]
        ).first
    }
}
