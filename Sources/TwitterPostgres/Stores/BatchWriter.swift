import Foundation
import PostgresNIO
import TwitterCore
import TwitterRules

/// Writes the posts of one group commit inside its transaction, collecting the events to report once it is
/// committed: each new tweet, and the new counts of the tweets a reply or repost changed. What to write is
/// `PostRule`'s and `RepostRule`'s decision, as in the SQLite store; this reads the facts and writes the plan.
struct BatchWriter {
    let connection: PostgresConnection
    let now: Date
    private let windowStart: Date
    /// A batch is usually a few authors posting many times: each name is looked up once per batch.
    private var usernames: [Int64: String] = [:]
    private(set) var events: [TweetEvent] = []

    init(connection: PostgresConnection, now: Date) {
        self.connection = connection
        self.now = now
        windowStart = now.addingTimeInterval(-PostDraft.idempotencyWindow)
    }

    /// Inserts a tweet or reply, or returns the earlier tweet with the same idempotency key, as `PostRule`
    /// decides on the facts read here.
    mutating func post(_ draft: PostDraft) async throws -> Tweet {
        var facts = PostFacts()
        if let key = draft.idempotencyKey {
            facts.earlier = try await earlierPost(authorID: draft.authorID, key: key)
        }
        if let answered = draft.inReplyToID, facts.earlier == nil {
            // A reply to a repost answers its original; across a block it is not there.
            facts.parent = try await Interactions.target(connection, of: answered, for: draft.authorID)
        }
        if let quoteOf = draft.quoteOfID, facts.earlier == nil,
            let target = try await TweetRows.target(connection, of: quoteOf),
            let author = try await Interactions.author(connection, of: target)
        {
            // A quote of a repost quotes its original; a block is read, not hidden: the rule refuses across it.
            facts.quoted = (target, author)
            facts.quotedBlocker = try await Interactions.blocker(connection, between: draft.authorID, and: author.id)
        }
        let found = EntityScanner.scan(draft.text)
        if facts.earlier == nil {
            facts.mentioned = try await mentionedAccounts(found.mentions)
            facts.blockedRecipients = try await Interactions.blocked(
                connection, with: draft.authorID,
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
            try await connection.run(
                "UPDATE tweets SET idempotency_key = NULL WHERE author_id = \(draft.authorID) AND idempotency_key = \(key)"
            )
        }
        guard
            let id = try await connection.rows(
                TweetInsert(
                    authorID: draft.authorID, text: draft.text, createdAt: now, idempotencyKey: draft.idempotencyKey,
                    inReplyToID: plan.inReplyToID, quoteOfID: plan.quoteOfID)
            ).first
        else { throw TwitterError(.internal, "The tweet just written has no id") }
        let tweet = Tweet(
            id: id, author: try await author(draft.authorID), text: draft.text, createdAt: now,
            inReplyToID: plan.inReplyToID, entities: plan.entities, quoteOfID: plan.quoteOfID)
        try await TweetMentionRows.insert(connection, tweetID: tweet.id, accountIDs: plan.mentionedIDs)
        try await TweetTagRows.insert(
            connection, tweetID: tweet.id, authorID: draft.authorID, createdAt: now, hashtags: found.hashtags)
        var parentCounts: TweetCounts?
        if let parentID = plan.countedParentID {
            parentCounts = try await TweetRows.adjust(connection, parentID, .replies, by: 1)
        }
        var quotedCounts: TweetCounts?
        if let quotedID = plan.quoteOfID {
            quotedCounts = try await TweetRows.adjust(connection, quotedID, .quotes, by: 1)
        }
        var notifications: [(ActivityNotification, recipientID: Int64)] = []
        for planned in plan.notifications {
            notifications.append(
                try await Interactions.insert(connection, planned, by: tweet.author, tweet: tweet, at: now))
        }
        events += PostRule.events(
            posted: tweet, parentCounts: parentCounts, quotedCounts: quotedCounts, notifications: notifications)
        return tweet
    }

    /// The accounts among `candidates` that exist, once each, as they spell their names.
    private func mentionedAccounts(_ candidates: [TweetEntities.Mention]) async throws -> [Tweet.Author] {
        let keys = Array(Set(candidates.map { EntityScanner.usernameKey($0.username) }))
        guard !keys.isEmpty else { return [] }
        return try await connection.rows("SELECT id, username FROM users WHERE username_key = ANY(\(keys))").map {
            Tweet.Author(id: try $0.column("id"), username: try $0.column("username"))
        }
    }

    /// Inserts `userID`'s repost of `id`'s original, or returns the one it already made, as `RepostRule` decides.
    mutating func repost(_ id: Int64, by userID: Int64) async throws -> Tweet {
        // Across a block the tweet is not there.
        let original = try await Interactions.target(connection, of: id, for: userID)
        var facts = RepostFacts(original: original)
        if let existing = try await connection.value(
            "SELECT id FROM tweets WHERE repost_of_id = \(original.id) AND author_id = \(userID)", as: Int64.self)
        {
            facts.existing = try await TweetRows.fetchOne(connection, id: existing)
        }
        switch try RepostRule.decide(id, by: userID, facts: facts) {
        case .existing(let repost):
            return repost
        case .write(let originalID, let planned):
            guard
                let repostID = try await connection.value(
                    """
                    INSERT INTO tweets (author_id, text, created_at, repost_of_id)
                    VALUES (\(userID), '', \(now), \(originalID)) RETURNING id
                    """, as: Int64.self)
            else { throw TwitterError(.internal, "The repost just written has no id") }
            let counts = try await TweetRows.adjust(connection, originalID, .reposts, by: 1)
            guard let repost = try await TweetRows.fetchOne(connection, id: repostID) else {
                throw TwitterError(.internal, "The repost just written is missing")
            }
            var notification: (ActivityNotification, recipientID: Int64)?
            if let planned {
                notification = try await Interactions.insert(
                    connection, planned, by: repost.author, tweet: repost, at: now)
            }
            events += RepostRule.events(
                reposted: repost, originalID: originalID, counts: counts, notification: notification)
            return repost
        }
    }

    private mutating func author(_ id: Int64) async throws -> Tweet.Author {
        if let username = usernames[id] { return Tweet.Author(id: id, username: username) }
        let username = try await connection.value("SELECT username FROM users WHERE id = \(id)", as: String.self) ?? ""
        usernames[id] = username
        return Tweet.Author(id: id, username: username)
    }

    private func earlierPost(authorID: Int64, key: String) async throws -> Tweet? {
        var query = SQL()
        let author = query.bind(authorID)
        let keyed = query.bind(key)
        let since = query.bind(windowStart)
        query.append(
            TweetRows.select(
                "WHERE tweets.author_id = \(author) AND tweets.idempotency_key = \(keyed) AND tweets.created_at >= \(since)"
            ))
        return try await TweetRows.fetchAll(connection, query).first
    }
}
