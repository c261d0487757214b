import Foundation
import TwitterCore
import TwitterRules

/// An account's archive, its deletion and its reset codes.
public struct AccountStore: AccountLifecycleStoring {
    let database: ObservedDatabase

    /// Creates the store; deletions are reported to `observer`.
    public init(database: any SQLDatabase, observer: any CommitObserving) {
        self.database = ObservedDatabase(database: database, observer: observer)
    }

    /// Reads each list oldest first from the cursor, going on into the next list while the page has room, in
    /// one repeatable-read transaction so the page is one moment's state (as SQLite's read transaction is).
    public func archivePage(of userID: Int64, from cursor: ArchiveCursor, limit: Int) async throws -> AccountArchivePage
    {
        try await database.snapshot { connection in
            var page = AccountArchivePage(
                profile: cursor == .start ? try await ArchiveRows.profile(connection, of: userID) : nil)
            let sections = ArchiveCursor.Section.accountLists
            guard var index = sections.firstIndex(of: cursor.section) else { return page }
            var after = cursor.after
            while index < sections.count {
                let room = limit - page.count
                let section = sections[index]
                // One more than there is room for: whether it exists says if the list goes on.
                let (count, last) = try await ArchiveRows.read(
                    connection, section, of: userID, after: after, limit: room + 1, into: &page)
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

    /// Takes the account's contributions out of others' counters, leaves tombstones where its tweets held a
    /// place in a conversation, reserves the name, and deletes the account row: every table that refers to it
    /// cascades (tokens, peer links, tweets with their tags, mentions and reposts by others, likes, follows,
    /// mutes, blocks, notifications, reports, reset codes, rate buckets). The login throttle's row for its
    /// e-mail goes too. An ordered write: the read model must drop the account in commit order.
    public func deleteAccount(_ userID: Int64, reservingNameUntil reservedUntil: Date) async throws {
        try await database.orderedWrite { connection in
            var facts: AccountDeletionRule.Facts?
            if let row = try await connection.firstRow(
                "SELECT username_key, email_key FROM users WHERE id = \(userID)\(lock: .forUpdate)")
            {
                // A suspended account's part is out of the counters already.
                facts = AccountDeletionRule.Facts(
                    usernameKey: try row.column("username_key", as: String.self),
                    emailKey: try row.column("email_key", as: String.self),
                    contributionsWithdrawn: try await Contributions.areWithdrawn(connection, of: userID))
            }
            let plan = try AccountDeletionRule.plan(deleting: userID, facts: facts, reservingNameUntil: reservedUntil)
            if plan.withdrawContributions { try await Contributions.move(connection, of: userID, by: -1) }
            try await MessageStore.deleteAccount(connection, userID)
            // Replies by the account itself go with it, so only others' replies and tombstones below keep a
            // top-level tweet's place.
            try await connection.run(
                """
                INSERT INTO tweet_tombstones (id, in_reply_to_id)
                SELECT id, in_reply_to_id FROM tweets
                WHERE author_id = \(userID) AND repost_of_id IS NULL AND (in_reply_to_id IS NOT NULL
                    OR EXISTS(SELECT 1 FROM tweets AS reply WHERE reply.in_reply_to_id = tweets.id AND reply.author_id <> \(userID))
                    OR EXISTS(SELECT 1 FROM tweet_tombstones AS gone WHERE gone.in_reply_to_id = tweets.id))
                ON CONFLICT (id) DO UPDATE SET in_reply_to_id = EXCLUDED.in_reply_to_id
                """)
            try await connection.run("DELETE FROM login_throttles WHERE key = \(plan.throttleKey)")
            try await connection.run(
                """
                INSERT INTO reserved_usernames (username_key, until)
                VALUES (\(plan.reservedName), \(connection.dialect.stored(plan.reservedUntil)))
                ON CONFLICT (username_key) DO UPDATE SET until = EXCLUDED.until
                """)
            // Its own lists and memberships go by cascade; the others' lists it is on stopped counting it with its
            // other contributions (above, or at its suspension).
            try await connection.run("DELETE FROM users WHERE id = \(userID)")
            // With the entry that ends its live connections on the other daemons: both commit, or neither.
            return ((), [.account(.revoked(.account(userID: userID, reason: .accountDeleted)))] + plan.events)
        }
    }

    /// One row per account: a new code replaces the old.
    public func storeResetCode(_ hash: [UInt8], for userID: Int64, expiresAt: Date) async throws {
        try await database.transaction { connection in
            try await connection.run(
                """
                INSERT INTO password_resets (user_id, code_hash, expires_at)
                VALUES (\(userID), \(Data(hash)), \(connection.dialect.stored(expiresAt)))
                ON CONFLICT (user_id) DO UPDATE SET code_hash = EXCLUDED.code_hash, expires_at = EXCLUDED.expires_at
                """)
        }
    }

    /// Matches the hash and the expiry with the row locked, deleting it when it matched or expired, so two uses
    /// of one code cannot both succeed: the second waits for the first and then finds no row.
    public func takeResetCode(_ hash: [UInt8], email: String, at now: Date) async throws -> Int64? {
        try await database.transaction { connection in
            guard
                let row = try await connection.firstRow(
                    """
                    SELECT password_resets.user_id, password_resets.code_hash, password_resets.expires_at
                    FROM password_resets JOIN users ON users.id = password_resets.user_id
                    WHERE users.email_key = \(email.lowercased())\(lock: .forUpdateOf("password_resets"))
                    """)
            else { return nil }
            let userID = try row.column("user_id", as: Int64.self)
            let outcome = ResetCodeRule.outcome(
                matches: try row.column("code_hash", as: Data.self) == Data(hash),
                expiresAt: try row.column("expires_at", as: Date.self), now: now)
            if outcome.deleteCode {
                try await connection.run("DELETE FROM password_resets WHERE user_id = \(userID)")
            }
            return outcome.accepted ? userID : nil
        }
    }
}
