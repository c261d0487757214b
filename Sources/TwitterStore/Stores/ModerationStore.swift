import Foundation
import GRDB
import TwitterCore
import TwitterSQL
import TwitterRules

/// Suspensions, reports and the audit log in SQLite. Standing changes are reported as
/// `TweetEvent.accountChanged`, report notifications as `TweetEvent.notified`.
public struct ModerationStore: ModerationStoring {
    let database: AppDatabase
    private let reporter: CommitReporter

    /// Creates the store; committed changes are reported to `observer`.
    public init(database: AppDatabase, observer: any TweetCommitObserving) {
        self.database = database
        reporter = CommitReporter(database: database, observer: observer)
    }

    /// Walks the primary key newest first, filtering by a `LIKE` on the folded username and e-mail.
    public func accounts(matching query: String?, status: AccountStatus?, page: PageRequest) async throws
        -> IDPage<ModeratedAccount>
    {
        try await database.writer.read { db in
            var conditions = ["id < ?"]
            var arguments: StatementArguments = [page.before ?? Int64.max]
            if let query, !query.isEmpty {
                let pattern = "%" + SearchStore.likeEscaped(query.lowercased()) + "%"
                conditions.append("(username_key LIKE ? ESCAPE '\\' OR email_key LIKE ? ESCAPE '\\')")
                arguments += [pattern, pattern]
            }
            switch status {
            case .active: conditions.append("suspended_at IS NULL")
            case .suspended: conditions.append("suspended_at IS NOT NULL")
            case nil: break
            }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, username, email, created_at, suspended_at, suspended_reason, role FROM users
                    WHERE \(conditions.joined(separator: " AND ")) ORDER BY id DESC LIMIT \(page.limit + 1)
                    """, arguments: arguments)
            return IDPage(overfetched: rows.map(Self.account(from:)), limit: page.limit, id: \.id)
        }
    }

    /// Looks the name up by its folded key, suspended or not.
    public func account(named username: String) async throws -> ModeratedAccount? {
        try await database.writer.read { db in
            try Row.fetchOne(
                db,
                sql:
                    "SELECT id, username, email, created_at, suspended_at, suspended_reason, role FROM users WHERE username_key = ?",
                arguments: [UserRows.key(username)]
            ).map(Self.account(from:))
        }
    }

    private static func account(from row: Row) -> ModeratedAccount {
        let suspendedAt: Date? = row["suspended_at"]
        return ModeratedAccount(
            id: row["id"], username: row["username"], email: row["email"],
            status: suspendedAt == nil ? .active : .suspended, createdAt: row["created_at"],
            suspendedReason: suspendedAt == nil ? nil : row["suspended_reason"],
            role: AccountRole(rawValue: row["role"]) ?? .user)
    }

    /// Marks the account and takes its contributions out of the counters, in one transaction.
    public func suspend(_ userID: Int64, reason: String, at now: Date) async throws -> Bool {
        try await changeStanding(.suspend, of: userID) { db in
            try db.execute(
                sql: "UPDATE users SET suspended_at = ?, suspended_reason = ? WHERE id = ?",
                arguments: [now, reason, userID])
        }
    }

    /// Clears the mark and puts the contributions back, in one transaction.
    public func unsuspend(_ userID: Int64) async throws -> Bool {
        try await changeStanding(.unsuspend, of: userID) { db in
            try db.execute(
                sql: "UPDATE users SET suspended_at = NULL, suspended_reason = NULL WHERE id = ?", arguments: [userID])
        }
    }

    /// Reads the standing in the write's transaction (SQLite's one writer keeps two changes apart), and writes
    /// the mark and the counters as `StandingRule` plans.
    private func changeStanding(
        _ change: StandingRule.Change, of userID: Int64, mark: @escaping @Sendable (Database) throws -> Void
    ) async throws -> Bool {
        try await reporter.write { db in
            let isSuspended = try Contributions.areWithdrawn(db, of: userID)
            guard let plan = StandingRule.plan(change, of: userID, isSuspended: isSuspended) else { return (false, []) }
            try mark(db)
            try Contributions.move(db, of: userID, by: plan.contributionSign)
            return (true, plan.events)
        }
    }

    /// Reads the mark.
    public func suspension(of userID: Int64) async throws -> String? {
        try await database.writer.read { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT suspended_at, suspended_reason FROM users WHERE id = ?"),
                arguments: [userID]
            ).flatMap { row in (row["suspended_at"] as Date?).map { _ in row["suspended_reason"] ?? "" } }
        }
    }

    /// Deletes like the author's own deletion does: reposts go with it, a tweet in a conversation leaves a
    /// tombstone.
    public func removeTweet(_ id: Int64) async throws -> String {
        try await reporter.write { db in
            let sql = """
                SELECT tweets.author_id, tweets.repost_of_id, tweets.in_reply_to_id, users.username
                FROM tweets JOIN users ON users.id = tweets.author_id WHERE tweets.id = ?
                """
            guard let row = try Row.fetchOne(db, sql: sql, arguments: [id]) else {
                throw TwitterError.notFound("Tweet \(id)")
            }
            let events = try TweetStore.delete(
                id, authorID: row["author_id"], repostOf: row["repost_of_id"], inReplyTo: row["in_reply_to_id"], in: db)
            return (row["username"], events)
        }
    }

    /// Inserts the report and one `admin.report` notification per admin (never to the reporter), in one
    /// transaction: blocks and mutes do not stop a report from reaching the admins.
    public func createReport(
        by reporterID: Int64, account accountID: Int64, tweet tweetID: Int64?, reason: String,
        notifying admins: [Int64], at now: Date
    ) async throws -> Int64 {
        try await reporter.write { db in
            try db.execute(
                sql:
                    "INSERT INTO reports (reporter_id, account_id, tweet_id, reason, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [reporterID, accountID, tweetID, reason, now])
            let reportID = db.lastInsertedRowID
            let tweet = try tweetID.flatMap { try TweetRows.fetchOne(db, id: $0) }
            let recipients = ReportRule.recipients(admins: admins, reporter: reporterID)
            var ids: [Int64: Int64] = [:]
            for admin in recipients {
                try db.execute(
                    sql: """
                        INSERT INTO notifications (recipient_id, type, actor_id, tweet_id, report_id, created_at)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        admin, ActivityNotification.Kind.adminReport.rawValue, reporterID, tweet?.id, reportID, now,
                    ])
                ids[admin] = db.lastInsertedRowID
            }
            let events = ReportRule.events(
                recipients: recipients, ids: ids, reporter: try Interactions.account(db, reporterID), tweet: tweet,
                reportID: reportID, at: now)
            return (reportID, events)
        }
    }

    private static let reportColumns = """
        SELECT reports.id, reporter.username AS reporter, account.username AS username, reports.tweet_id, reports.reason,
            reports.status, reports.created_at, reports.note
        FROM reports JOIN users AS reporter ON reporter.id = reports.reporter_id
        JOIN users AS account ON account.id = reports.account_id
        """

    /// Walks the (status, id) index, or the primary key for every status.
    public func reports(status: ReportStatus?, page: PageRequest) async throws -> IDPage<Report> {
        try await database.writer.read { db in
            var sql = Self.reportColumns + " WHERE reports.id < ?"
            var arguments: StatementArguments = [page.before ?? Int64.max]
            if let status {
                sql += " AND reports.status = ?"
                arguments += [status.rawValue]
            }
            sql += " ORDER BY reports.id DESC LIMIT ?"
            arguments += [page.limit + 1]
            let rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
            return IDPage(overfetched: rows.map(Self.report(from:)), limit: page.limit, id: \.id)
        }
    }

    /// Sets the status and the note; resolving again replaces the note.
    public func resolveReport(_ id: Int64, note: String?, by admin: String, at now: Date) async throws -> Report? {
        try await database.writer.write { db in
            try db.execute(
                sql: "UPDATE reports SET status = 'resolved', note = ?, resolved_by = ?, resolved_at = ? WHERE id = ?",
                arguments: [note, admin, now, id])
            return try Row.fetchOne(db, sql: Self.reportColumns + " WHERE reports.id = ?", arguments: [id])
                .map(Self.report(from:))
        }
    }

    private static func report(from row: Row) -> Report {
        Report(
            id: row["id"], reporter: row["reporter"], username: row["username"], tweetID: row["tweet_id"],
            reason: row["reason"], status: ReportStatus(rawValue: row["status"]) ?? .open, createdAt: row["created_at"],
            note: row["note"])
    }

    /// Appends a row.
    public func record(_ entry: AuditEntry) async throws -> AuditEntry {
        try await database.writer.write { db in
            try db.execute(
                sql: "INSERT INTO audit_entries (actor, action, target, reason, created_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [entry.actor, entry.action, entry.target, entry.reason, entry.createdAt])
            var stored = entry
            stored.id = db.lastInsertedRowID
            return stored
        }
    }

    /// Walks the primary key newest first.
    public func auditEntries(page: PageRequest) async throws -> IDPage<AuditEntry> {
        try await database.writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, actor, action, target, reason, created_at FROM audit_entries WHERE id < ?
                    ORDER BY id DESC LIMIT ?
                    """, arguments: [page.before ?? Int64.max, page.limit + 1])
            let entries = rows.map {
                AuditEntry(
                    id: $0["id"], actor: $0["actor"], action: $0["action"], target: $0["target"], reason: $0["reason"],
                    createdAt: $0["created_at"])
            }
            return IDPage(overfetched: entries, limit: page.limit, id: \.id)
        }
    }
}
