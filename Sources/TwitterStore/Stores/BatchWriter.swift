import Foundation
import GRDB
import TwitterCore
import TwitterRules

/// Writes the posts of one group commit inside its transaction, collecting the events to report once it is
/// committed: each new tweet, and the new counts of the tweets a reply or repost changed. What to write is
/// `PostRule`'s and `RepostRule`'s decision; this reads the facts and writes the plan.
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

    /// Inserts a tweet or reply, or returns the earlier tweet with the same idempotency key, as `PostRule`
    /// decides on the facts read here.
    mutating func post(_ draft: PostDraft) throws -> Tweet {
        var facts = PostFacts()
        if let key = draft.idempotencyKey { facts.earlier = try earlierPost(authorID: draft.authorID, key: key) }
        if let answered = draft.inReplyToID, facts.earlier == nil {
            // A reply to a repost answers its original; across a block it is not there.
            facts.parent = try Interactions.target(db, of: answered, for: draft.authorID)
        }
        if let quoteOf = draft.quoteOfID, facts.earlier == nil {
            // A quote of a repost quotes its original; a block is read, not hidden: the rule refuses across it.
            if let target = try TweetRows.target(db, of: quoteOf), let author = try Interactions.author(db, of: target)
            {
                facts.quoted = (target, author)
                facts.quotedBlocker = try Interactions.blocker(db, between: draft.authorID, and: author.id)
            }
        }
        let found = EntityScanner.scan(draft.text)
        if facts.earlier == nil {
            facts.mentioned = try mentionedAccounts(found.mentions)
            facts.blockedRecipients = try Interactions.blocked(
                db, with: draft.authorID,
                among: PostRule.recipientCandidates(
                    parentAuthor: facts.parent?.author.id, quotedAuthor: facts.quoted?.author.id,
                    mentioned: facts.mentioned))
        }
        let plan: PostPlan
        switch try PostRule.decide(draft, found: found, facts: facts) {
        case .earlier(let tweet): return tweet
        case .write(let decided): plan = decided
        }
        if plan.releasesIdempotencyKey, let key = draft.idempotencyKey {
            // A key older than the window may be used again: the old tweet lets go of it.
            try db.execute(
                sql: "UPDATE tweets SET idempotency_key = NULL WHERE author_id = ? AND idempotency_key = ?",
                arguments: [draft.authorID, key])
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO tweets (author_id, text, created_at, idempotency_key, in_reply_to_id, quote_of)
                VALUES (?, ?, ?, ?, ?, ?)
                """
        )
        .execute(
            arguments: [draft.authorID, draft.text, storedNow, draft.idempotencyKey, plan.inReplyToID, plan.quoteOfID])
        let tweet = Tweet(
            id: db.lastInsertedRowID, author: try author(draft.authorID), text: draft.text, createdAt: now,
            inReplyToID: plan.inReplyToID, entities: plan.entities, quoteOfID: plan.quoteOfID)
        try TweetMentionRows.insert(db, tweetID: tweet.id, accountIDs: plan.mentionedIDs)
        try TweetTagRows.insert(
            db, tweetID: tweet.id, authorID: draft.authorID, createdAt: storedNow, hashtags: found.hashtags)
        let parentCounts = try plan.countedParentID.flatMap { try TweetRows.adjust(db, $0, .replies, by: 1) }
        let quotedCounts = try plan.quoteOfID.flatMap { try TweetRows.adjust(db, $0, .quotes, by: 1) }
        let notifications = try plan.notifications.map {
            try Interactions.insert(db, $0, by: tweet.author, tweet: tweet, at: now)
        }
        events += PostRule.events(
            posted: tweet, parentCounts: parentCounts, quotedCounts: quotedCounts, notifications: notifications)
        return tweet
    }

    /// The accounts among `candidates` that exist, once each, as they spell their names.
    private func mentionedAccounts(_ candidates: [TweetEntities.Mention]) throws -> [Tweet.Author] {
        let keys = Array(Set(candidates.map { EntityScanner.usernameKey($0.username) }))
        guard !keys.isEmpty else { return [] }
        return try Row.fetchAll(
            db,
            sql: "SELECT id, username FROM users WHERE username_key IN (\(databaseQuestionMarks(count: keys.count)))",
            arguments: StatementArguments(keys)
        ).map { Tweet.Author(id: $0["id"], username: $0["username"]) }
    }

    /// Inserts `userID`'s repost of `id`'s original, or returns the one it already made, as `RepostRule` decides.
    mutating func repost(_ id: Int64, by userID: Int64) throws -> Tweet {
        // Across a block the tweet is not there.
        let original = try Interactions.target(db, of: id, for: userID)
        var facts = RepostFacts(original: original)
        if let existing = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT id FROM tweets WHERE repost_of_id = ? AND author_id = ?"),
            arguments: [original.id, userID])
        {
            facts.existing = try TweetRows.fetchOne(db, id: existing)
        }
        switch try RepostRule.decide(id, by: userID, facts: facts) {
        case .existing(let repost):
            return repost
        case .write(let originalID, let planned):
            try db.cachedStatement(
                sql: "INSERT INTO tweets (author_id, text, created_at, repost_of_id) VALUES (?, '', ?, ?)"
            )
            .execute(arguments: [userID, storedNow, originalID])
            let repostID = db.lastInsertedRowID
            let counts = try TweetRows.adjust(db, originalID, .reposts, by: 1)
            guard let repost = try TweetRows.fetchOne(db, id: repostID) else {
                throw TwitterError(.internal, "The repost just written is missing")
            }
            let notification = try planned.map {
                try Interactions.insert(db, $0, by: repost.author, tweet: repost, at: now)
            }
            events += RepostRule.events(
                reposted: repost, originalID: originalID, counts: counts, notification: notification)
            return repost
        }
    }

    private mutating func author(_ id: Int64) throws -> Tweet.Author {
        let username =
            try usernames[id]
            ?? String.fetchOne(db.cachedStatement(sql: "SELECT username FROM users WHERE id = ?"), arguments: [id])
            ?? ""
        usernames[id] = username
        return Tweet.Author(id: id, username: username)
    }

    private func earlierPost(authorID: Int64, key: String) throws -> Tweet? {
        try TweetRows.fetchAll(
            db, "WHERE tweets.author_id = ? AND tweets.idempotency_key = ? AND tweets.created_at >= ?",
            [authorID, key, windowStart]
        ).first
    }
}
