import Foundation
import TwitterCore
import TwitterRules

/// Writes the posts of one group commit inside its transaction, collecting the events to report once it is
/// committed: each new tweet, and the new counts of the tweets a reply or repost changed. What to write is
/// `PostRule`'s and `RepostRule`'s decision; this reads the facts and writes the plan, its rows in one batch a
/// table (`PostRows`), which each driver writes its fastest way.
///
/// Posts are decided one by one as they come (`stage`) and written together (`writeStaged`): on PostgreSQL one
/// insert of all the staged tweets, one of their tags, one of their mentions, where each post took a round trip
/// of its own for each. What is staged is written before anything whose facts a staged post could change: a
/// repost, a post with the same author and idempotency key, and a reply or quote (a client that pipelines a post
/// and a reply to it knows the id the post will get). The other facts a post reads (mentioned accounts, blocks)
/// no staged tweet can change.
public struct BatchWriter {
    let connection: any SQLConnection
    let now: Date
    private let windowStart: Date
    private var staged: [Staged] = []
    /// The idempotency keys of the staged posts, with their authors'.
    private var stagedKeys: Set<AuthorKey> = []
    private(set) var events: [CommitEvent] = []

    /// A post decided and not yet written, with its place in the batch.
    private struct Staged {
        let index: Int
        let draft: PostDraft
        let plan: PostPlan
        let hashtags: [TweetEntities.Hashtag]
    }

    private struct AuthorKey: Hashable {
        let authorID: Int64
        let key: String
    }

    init(connection: any SQLConnection, now: Date) {
        self.connection = connection
        self.now = now
        windowStart = now.addingTimeInterval(-PostDraft.idempotencyWindow)
    }

    /// Whether `draft` must wait for the staged posts to be written: it answers or quotes a tweet that may be
    /// among them, or its key is one of theirs, and the earlier tweet it may have to answer with is among them.
    func mustWriteStaged(before draft: PostDraft) -> Bool {
        guard !staged.isEmpty else { return false }
        if draft.inReplyToID != nil || draft.quoteOfID != nil { return true }
        guard let key = draft.idempotencyKey else { return false }
        return stagedKeys.contains(AuthorKey(authorID: draft.authorID, key: key))
    }

    /// Decides a tweet or reply as `PostRule` does on the facts read here: returns the earlier tweet with the
    /// same idempotency key, or nil once the new tweet is staged, to be written by `writeStaged` as the
    /// `index`th of the batch. Throws, writing nothing, when the rule refuses it.
    mutating func stage(_ draft: PostDraft, as index: Int) async throws -> Tweet? {
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
            facts.quotedBlocker = try await Blocks.blocker(connection, between: draft.authorID, and: author.id)
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
        if let key = draft.idempotencyKey {
            if plan.releasesIdempotencyKey {
                // A key older than the window may be used again: the old tweet lets go of it.
                try await connection.run(SQLQuery(ReleaseKey.self, draft.authorID, key))
            }
            stagedKeys.insert(AuthorKey(authorID: draft.authorID, key: key))
        }
        staged.append(Staged(index: index, draft: draft, plan: plan, hashtags: found.hashtags))
        return nil
    }

    /// Writes the staged posts, in the order they were staged, and returns each new tweet with its place in the
    /// batch. The counters of replies and quotes follow, post by post, then every post's notifications together,
    /// their ids in the posts' order, so that the events come in the same order, with the same
    /// counts and ids, as if each post had been written alone.
    mutating func writeStaged() async throws -> [(index: Int, tweet: Tweet)] {
        guard !staged.isEmpty else { return [] }
        let posts = staged
        staged = []
        stagedKeys = []
        let written = try await PostRows.insertTweets(
            posts.map {
                NewTweet(
                    authorID: $0.draft.authorID, text: $0.draft.text, idempotencyKey: $0.draft.idempotencyKey,
                    inReplyToID: $0.plan.inReplyToID, quoteOfID: $0.plan.quoteOfID)
            }, at: now, on: connection)
        guard written.count == posts.count else {
            throw TwitterError(.internal, "\(posts.count) tweets were written, \(written.count) came back")
        }
        let tweets = zip(posts, written).map { post, row in
            Tweet(
                id: row.id, author: Tweet.Author(id: post.draft.authorID, username: row.username),
                text: post.draft.text, createdAt: now, inReplyToID: post.plan.inReplyToID,
                entities: post.plan.entities, quoteOfID: post.plan.quoteOfID)
        }
        try await PostRows.insertMentions(
            zip(posts, tweets).flatMap { post, tweet in post.plan.mentionedIDs.map { (tweet.id, $0) } },
            on: connection)
        try await PostRows.insertTags(
            zip(posts, tweets).map {
                TaggedTweet(tweetID: $1.id, authorID: $0.draft.authorID, hashtags: $0.hashtags)
            }, at: now, on: connection)
        var counts: [(parent: TweetCounts?, quoted: TweetCounts?)] = []
        for post in posts {
            var parentCounts: TweetCounts?
            if let parentID = post.plan.countedParentID {
                parentCounts = try await TweetRows.adjust(connection, parentID, .replies, by: 1)
            }
            var quotedCounts: TweetCounts?
            if let quotedID = post.plan.quoteOfID {
                quotedCounts = try await TweetRows.adjust(connection, quotedID, .quotes, by: 1)
            }
            counts.append((parentCounts, quotedCounts))
        }
        // Every post's notifications together, their ids in the posts' order.
        let planned = zip(posts, tweets).flatMap { post, tweet in
            post.plan.notifications.map { PlannedNotificationRow(notification: $0, actor: tweet.author, tweet: tweet) }
        }
        let ids = try await PostRows.insertNotifications(planned, at: now, on: connection)
        guard ids.count == planned.count else {
            throw TwitterError(.internal, "\(planned.count) notifications were written, \(ids.count) came back")
        }
        var notifications = zip(planned, ids).map { planned, id in
            (
                ActivityNotification(
                    id: id, type: planned.notification.kind, createdAt: now,
                    from: .init(id: planned.actor.id, username: planned.actor.username), tweet: planned.tweet),
                recipientID: planned.notification.recipientID
            )
        }[...]
        for ((post, tweet), counts) in zip(zip(posts, tweets), counts) {
            let own = notifications.prefix(post.plan.notifications.count)
            notifications = notifications.dropFirst(own.count)
            events += PostRule.events(
                posted: tweet, parentCounts: counts.parent, quotedCounts: counts.quoted, notifications: Array(own))
        }
        return zip(posts, tweets).map { ($0.index, $1) }
    }

    /// The accounts among `candidates` that exist, once each, as they spell their names.
    private func mentionedAccounts(_ candidates: [TweetEntities.Mention]) async throws -> [Tweet.Author] {
        let keys = Array(Set(candidates.map { EntityScanner.usernameKey($0.username) }))
        guard !keys.isEmpty else { return [] }
        return try await connection.rows(SQLQuery(Mentioned.self, keys)).map {
            Tweet.Author(id: try $0.column("id"), username: try $0.column("username"))
        }
    }

    private enum Mentioned: SQLText {
        static let sql: SQLQuery = "SELECT id, username FROM users WHERE username_key \(isInParam: 1)"
    }

    /// Lets go of an idempotency key older than the window.
    private enum ReleaseKey: SQLText {
        static let sql: SQLQuery =
            "UPDATE tweets SET idempotency_key = NULL WHERE author_id = \(param: 1) AND idempotency_key = \(param: 2)"
    }

    /// Inserts `userID`'s repost of `id`'s original, or returns the one it already made, as `RepostRule` decides.
    mutating func repost(_ id: Int64, by userID: Int64) async throws -> Tweet {
        // Across a block the tweet is not there.
        let original = try await Interactions.target(connection, of: id, for: userID)
        var facts = RepostFacts(original: original)
        if let existing = try await connection.value(SQLQuery(RepostOf.self, original.id, userID), as: Int64.self) {
            facts.existing = try await TweetRows.fetchOne(connection, id: existing)
        }
        switch try RepostRule.decide(id, by: userID, facts: facts) {
        case .existing(let repost):
            return repost
        case .write(let originalID, let planned):
            guard
                let repostID = try await connection.value(
                    SQLQuery(InsertRepost.self, userID, now, originalID), as: Int64.self)
            else { throw TwitterError(.internal, "The repost just written has no id") }
            let counts = try await TweetRows.adjust(connection, originalID, .reposts, by: 1)
            guard let repost = try await TweetRows.fetchOne(connection, id: repostID) else {
                throw TwitterError(.internal, "The repost just written is missing")
            }
            var notification: (ActivityNotification, recipientID: Int64)?
            if let planned {
                notification = try await NotificationRows.insert(
                    connection, planned, by: repost.author, tweet: repost, at: now)
            }
            events += RepostRule.events(
                reposted: repost, originalID: originalID, counts: counts, notification: notification)
            return repost
        }
    }

    /// Account `$2`'s repost of tweet `$1`, if any.
    private enum RepostOf: SQLText {
        static let sql: SQLQuery = "SELECT id FROM tweets WHERE repost_of_id = \(param: 1) AND author_id = \(param: 2)"
    }

    private enum InsertRepost: SQLText {
        static let sql: SQLQuery =
            "INSERT INTO tweets (author_id, text, created_at, repost_of_id) VALUES (\(param: 1), '', \(param: 2), \(param: 3)) RETURNING id"
    }

    private func earlierPost(authorID: Int64, key: String) async throws -> Tweet? {
        try await connection.firstRow(SQLQuery(EarlierPost.self, authorID, key, windowStart)).map(
            TweetRows.tweet(from:))
    }

    private enum EarlierPost: SQLText {
        static let sql: SQLQuery = TweetRows.select(
            "WHERE tweets.author_id = \(param: 1) AND tweets.idempotency_key = \(param: 2) AND tweets.created_at >= \(param: 3)"
        )
    }
}

extension BatchWriter {
    /// Writes `posts` as one batch in the caller's transaction, `now` their time: each post's outcome, in their
    /// order, and the batch's events. A repost, or a post whose facts a staged post could change, first has the
    /// staged posts written; a post refused by a check (a reply to a missing tweet) fails alone, the checks running
    /// before its first write so the transaction stays usable.
    public static func write(
        _ posts: [PendingPost], on connection: any SQLConnection, now: Date
    ) async throws -> (outcomes: [Result<Tweet, TwitterError>], events: [CommitEvent]) {
        var writer = BatchWriter(connection: connection, now: now)
        var outcomes = [Result<Tweet, TwitterError>?](repeating: nil, count: posts.count)
        for (index, post) in posts.enumerated() {
            let seesStaged =
                switch post {
                case .post(let draft): writer.mustWriteStaged(before: draft)
                case .repost: true
                }
            if seesStaged {
                for (written, tweet) in try await writer.writeStaged() { outcomes[written] = .success(tweet) }
            }
            do {
                switch post {
                case .post(let draft):
                    if let earlier = try await writer.stage(draft, as: index) { outcomes[index] = .success(earlier) }
                case .repost(let id, let userID):
                    outcomes[index] = .success(try await writer.repost(id, by: userID))
                }
            } catch let error as TwitterError {
                outcomes[index] = .failure(error)
            }
        }
        for (written, tweet) in try await writer.writeStaged() { outcomes[written] = .success(tweet) }
        return (
            outcomes.map { $0 ?? .failure(TwitterError(.internal, "A post of the batch was not written")) },
            writer.events
        )
    }
}
