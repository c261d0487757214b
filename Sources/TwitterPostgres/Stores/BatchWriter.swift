import Foundation
import PostgresNIO
import TwitterCore

/// Writes the posts of one group commit inside its transaction, collecting the events to report once it is
/// committed: each new tweet, and the new counts of the tweets a reply or repost changed. The PostgreSQL twin
/// of the SQLite store's `BatchWriter`, statement for statement.
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

    /// Inserts a tweet or reply, or returns the earlier tweet with the same idempotency key.
    mutating func post(_ draft: PostDraft) async throws -> Tweet {
        if let key = draft.idempotencyKey {
            if let earlier = try await earlierPost(authorID: draft.authorID, key: key) { return earlier }
            // A key older than the window may be used again: the old tweet lets go of it.
            try await connection.run(
                "UPDATE tweet SET idempotency_key = NULL WHERE author_id = \(draft.authorID) AND idempotency_key = \(key)"
            )
        }
        var parent: Tweet.Author?
        var parentID: Int64?
        if let answered = draft.inReplyToID {
            // A reply to a repost answers its original.
            let (target, author) = try await Interactions.target(connection, of: answered, for: draft.authorID)
            (parent, parentID) = (author, target)
        }
        let found = EntityScanner.scan(draft.text)
        let mentioned = try await mentionedAccounts(found.mentions)
        guard
            let id = try await connection.rows(
                TweetInsert(
                    authorID: draft.authorID, text: draft.text, createdAt: now, idempotencyKey: draft.idempotencyKey,
                    inReplyToID: parentID)
            ).first
        else { throw TwitterError(.internal, "The tweet just written has no id") }
        let tweet = Tweet(
            id: id, author: try await author(draft.authorID), text: draft.text, createdAt: now,
            inReplyToID: parentID, entities: TweetEntities(found: found, mentioned: mentioned.map(\.username)))
        events.append(.posted(tweet))
        try await TweetMentionRows.insert(connection, tweetID: tweet.id, accountIDs: mentioned.map(\.id))
        try await TweetTagRows.insert(
            connection, tweetID: tweet.id, authorID: draft.authorID, createdAt: now, hashtags: found.hashtags)
        if let parentID { try await count(parentID, .replies, by: 1) }
        // One notification per account: the author answered hears of a reply, not also of its mention.
        if let parent,
            let event = try await Interactions.notify(
                connection, parent.id, of: .reply, by: tweet.author, tweet: tweet, at: now)
        {
            events.append(event)
        }
        for account in mentioned where account.id != parent?.id {
            if let event = try await Interactions.notify(
                connection, account.id, of: .mention, by: tweet.author, tweet: tweet, at: now)
            {
                events.append(event)
            }
        }
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

    /// Inserts `userID`'s repost of `id`'s original, or returns the one it already made.
    mutating func repost(_ id: Int64, by userID: Int64) async throws -> Tweet {
        let (originalID, originalAuthor) = try await Interactions.target(connection, of: id, for: userID)
        if let existing = try await connection.value(
            "SELECT id FROM tweet WHERE repost_of_id = \(originalID) AND author_id = \(userID)", as: Int64.self),
            let repost = try await TweetRows.fetchOne(connection, id: existing)
        {
            return repost
        }
        guard
            let repostID = try await connection.value(
                """
                INSERT INTO tweet (author_id, text, created_at, repost_of_id)
                VALUES (\(userID), '', \(now), \(originalID)) RETURNING id
                """, as: Int64.self)
        else { throw TwitterError(.internal, "The repost just written has no id") }
        try await count(originalID, .reposts, by: 1)
        guard let repost = try await TweetRows.fetchOne(connection, id: repostID) else {
            throw TwitterError(.internal, "The repost just written is missing")
        }
        // The posting goes before the count: readers place the repost, then update every copy of the original.
        events.insert(.posted(repost), at: events.count - 1)
        if let event = try await Interactions.notify(
            connection, originalAuthor.id, of: .repost, by: repost.author, tweet: repost, at: now)
        {
            events.append(event)
        }
        return repost
    }

    /// Moves one of tweet `id`'s counters and records its new counts.
    private mutating func count(_ id: Int64, _ counter: TweetRows.Counter, by change: Int) async throws {
        if let counts = try await TweetRows.adjust(connection, id, counter, by: change) {
            events.append(.counted(id: id, counts))
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
                "WHERE tweet.author_id = \(author) AND tweet.idempotency_key = \(keyed) AND tweet.created_at >= \(since)"
            ))
        return try await TweetRows.fetchAll(connection, query).first
    }
}
