import Foundation
import GRDB
import TwitterCore
import TwitterSQL
import TwitterRules

/// An account's archive, its deletion and its reset codes in SQLite.
public struct AccountStore: AccountLifecycleStoring {
    let database: AppDatabase
    private let reporter: CommitReporter

    /// Creates the store; a deletion is reported to `observer`.
    public init(database: AppDatabase, observer: any TweetCommitObserving) {
        self.database = database
        reporter = CommitReporter(database: database, observer: observer)
    }

    /// Reads each list oldest first from the cursor, going on into the next list while the page has room, in
    /// one read transaction so the page is one moment's state.
    public func archivePage(of userID: Int64, from cursor: ArchiveCursor, limit: Int) async throws
        -> AccountArchivePage
    {
        try await database.writer.read { db in
            var page = AccountArchivePage(
                profile: cursor == .start ? try UserRecord.fetchOne(db, key: userID)?.profile : nil)
            let sections = ArchiveCursor.Section.allCases
            guard var index = sections.firstIndex(of: cursor.section) else { return page }
            var after = cursor.after
            while index < sections.count {
                let room = limit - page.count
                let section = sections[index]
                // One more than there is room for: whether it exists says if the list goes on.
                let (count, last) = try Self.read(db, section, of: userID, after: after, limit: room + 1, into: &page)
                if count > room {
                    page.next = ArchiveCursor(section: section, after: last)
                    return page
                }
                index += 1
                after = 0
            }
            return page
        }
    }

    /// Appends the rows of `section` after `after` to `page`, up to `limit` - 1 of them; returns how many rows
    /// there were (up to `limit`) and the id of the last one kept.
    private static func read(
        _ db: Database, _ section: ArchiveCursor.Section, of userID: Int64, after: Int64, limit: Int,
        into page: inout AccountArchivePage
    ) throws -> (count: Int, lastKept: Int64) {
        let keep = limit - 1
        func relations(_ table: String, _ owner: String, _ other: String) throws -> [(Int64, ArchivedRelation)] {
            try Row.fetchAll(
                db,
                sql: """
                    SELECT relationship.id, users.username, relationship.created_at
                    FROM \(table) AS relationship JOIN users ON users.id = relationship.\(other)
                    WHERE relationship.\(owner) = ? AND relationship.id > ? ORDER BY relationship.id LIMIT ?
                    """, arguments: [userID, after, limit]
            ).map { ($0["id"], ArchivedRelation(username: $0["username"], createdAt: $0["created_at"])) }
        }
        switch section {
        case .tweets:
            let tweets = try TweetRows.fetchAll(
                db, "WHERE tweets.author_id = ? AND tweets.id > ? ORDER BY tweets.id LIMIT ?", [userID, after, limit])
            // Reposts of tweets the owner may no longer see (across a block) carry none of their text.
            let visibility = TweetVisibility(try SQLiteConnection.run(db) { try await RelationStore.hiddenAccounts($0, of: userID) })
            page.tweets += tweets.prefix(keep).map(visibility.archived)
            return (tweets.count, tweets.prefix(keep).last?.id ?? after)
        case .likes:
            let likes = try Row.fetchAll(
                db,
                sql:
                    "SELECT id, tweet_id, created_at FROM tweet_likes WHERE user_id = ? AND id > ? ORDER BY id LIMIT ?",
                arguments: [userID, after, limit])
            page.likes += likes.prefix(keep).map { ArchivedLike(tweetId: $0["tweet_id"], createdAt: $0["created_at"]) }
            return (likes.count, likes.prefix(keep).last?["id"] ?? after)
        case .lists:
            let lists = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, name, description, is_private, created_at FROM lists
                    WHERE owner_id = ? AND id > ? ORDER BY id LIMIT ?
                    """, arguments: [userID, after, limit])
            for list in lists.prefix(keep) {
                let members = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT users.username, list_members.created_at FROM list_members
                        JOIN users ON users.id = list_members.member_id WHERE list_members.list_id = ?
                        ORDER BY list_members.id
                        """, arguments: [list["id"]]
                ).map { ArchivedRelation(username: $0["username"], createdAt: $0["created_at"]) }
                page.lists.append(
                    ArchivedList(
                        id: list["id"], name: list["name"], description: list["description"],
                        isPrivate: list["is_private"], createdAt: list["created_at"], members: members))
            }
            return (lists.count, lists.prefix(keep).last?["id"] ?? after)
        case .bookmarks:
            let bookmarks = try Row.fetchAll(
                db,
                sql: "SELECT id, tweet_id, created_at FROM bookmarks WHERE user_id = ? AND id > ? ORDER BY id LIMIT ?",
                arguments: [userID, after, limit])
            page.bookmarks += bookmarks.prefix(keep).map {
                ArchivedBookmark(tweetId: $0["tweet_id"], createdAt: $0["created_at"])
            }
            return (bookmarks.count, bookmarks.prefix(keep).last?["id"] ?? after)
        case .follows, .mutes, .blocks:
            let (table, owner, other) =
                switch section {
                case .follows: ("follows", "follower_id", "followee_id")
                case .mutes: ("mutes", "muter_id", "muted_id")
                default: ("blocks", "blocker_id", "blocked_id")
                }
            let rows = try relations(table, owner, other)
            let kept = rows.prefix(keep).map(\.1)
            switch section {
            case .follows: page.follows += kept
            case .mutes: page.mutes += kept
            default: page.blocks += kept
            }
            return (rows.count, rows.prefix(keep).last?.0 ?? after)
        }
    }

    /// Takes the account's contributions out of others' counters, leaves tombstones where its tweets held a
    /// place in a conversation, reserves the name, and deletes the account row: every table that refers to it
    /// cascades (tokens, peer links, tweets with their tags, mentions and reposts by others, likes, follows,
    /// mutes, blocks, notifications, reports, reset codes, rate buckets). The login throttle's row for its
    /// e-mail goes too.
    public func deleteAccount(_ userID: Int64, reservingNameUntil reservedUntil: Date) async throws {
        try await reporter.write { db in
            let facts = try Row.fetchOne(
                db, sql: "SELECT username_key, email_key FROM users WHERE id = ?", arguments: [userID]
            ).map { row in
                AccountDeletionRule.Facts(
                    usernameKey: row["username_key"], emailKey: row["email_key"],
                    contributionsWithdrawn: try Contributions.areWithdrawn(db, of: userID))
            }
            let plan = try AccountDeletionRule.plan(deleting: userID, facts: facts, reservingNameUntil: reservedUntil)
            if plan.withdrawContributions { try Contributions.move(db, of: userID, by: -1) }
            // One statement per execute: in a multi-statement execute, GRDB hands the arguments out statement by
            // statement, so numbered parameters shared between statements do not bind.
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO tweet_tombstones (id, in_reply_to_id)
                    SELECT id, in_reply_to_id FROM tweets
                    WHERE author_id = ?1 AND repost_of_id IS NULL AND (in_reply_to_id IS NOT NULL
                        OR EXISTS(SELECT 1 FROM tweets AS reply WHERE reply.in_reply_to_id = tweets.id AND reply.author_id != ?1)
                        OR EXISTS(SELECT 1 FROM tweet_tombstones AS gone WHERE gone.in_reply_to_id = tweets.id))
                    """, arguments: [userID])
            try db.execute(sql: "DELETE FROM login_throttles WHERE key = ?", arguments: [plan.throttleKey])
            try db.execute(
                sql: "INSERT OR REPLACE INTO reserved_usernames (username_key, until) VALUES (?, ?)",
                arguments: [plan.reservedName, plan.reservedUntil])
            try SQLiteConnection.run(db) { try await MessageStore.deleteAccount($0, userID) }
            // Its own lists and memberships go by cascade; the others' lists it is on count it no more.
            try SQLiteConnection.run(db) { try await ListStore.withdrawMemberships($0, of: userID) }
            try db.execute(sql: "DELETE FROM users WHERE id = ?", arguments: [userID])
            return ((), plan.events)
        }
    }

    /// One row per account: a new code replaces the old.
    public func storeResetCode(_ hash: [UInt8], for userID: Int64, expiresAt: Date) async throws {
        try await database.writer.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO password_resets (user_id, code_hash, expires_at) VALUES (?, ?, ?)",
                arguments: [userID, Data(hash), expiresAt])
        }
    }

    /// Matches the hash and the expiry in one write transaction, deleting the row when it matched or expired,
    /// so two uses of one code cannot both succeed.
    public func takeResetCode(_ hash: [UInt8], email: String, at now: Date) async throws -> Int64? {
        try await database.writer.write { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT password_resets.user_id, password_resets.code_hash, password_resets.expires_at FROM password_resets
                        JOIN users ON users.id = password_resets.user_id WHERE users.email_key = ?
                        """, arguments: [UserRows.key(email)])
            else { return nil }
            let userID: Int64 = row["user_id"]
            let outcome = ResetCodeRule.outcome(
                matches: (row["code_hash"] as Data) == Data(hash), expiresAt: row["expires_at"], now: now)
            if outcome.deleteCode {
                try db.execute(sql: "DELETE FROM password_resets WHERE user_id = ?", arguments: [userID])
            }
            return outcome.accepted ? userID : nil
        }
    }
}
