import Foundation
import PostgresNIO
import TwitterCore

/// Suspensions, reports and the audit log in PostgreSQL. Standing changes are reported as
/// `TweetEvent.accountChanged`, report notifications as `TweetEvent.notified`, so both are ordered writes.
struct ModerationStore: ModerationStoring {
    let database: PostgresStore
    let observer: any TweetCommitObserving

    /// The columns `account(from:)` reads.
    private static let accountColumns =
        "SELECT id, username, email, created_at, suspended_at, suspended_reason FROM users"

    /// Walks the primary key newest first, filtering by a `LIKE` on the folded username and e-mail.
    func accounts(matching query: String?, status: AccountStatus?, page: PageRequest) async throws -> IDPage<
        ModeratedAccount
    > {
        try await database.read { connection in
            var sql = SQL()
            var conditions = ["id < \(sql.bind(page.before ?? Int64.max))"]
            if let query, !query.isEmpty {
                let pattern = sql.bind("%" + SearchStore.likeEscaped(query.lowercased()) + "%")
                conditions.append("(username_key LIKE \(pattern) ESCAPE '\\' OR email_key LIKE \(pattern) ESCAPE '\\')")
            }
            switch status {
            case .active: conditions.append("suspended_at IS NULL")
            case .suspended: conditions.append("suspended_at IS NOT NULL")
            case nil: break
            }
            sql.append(
                """
                \(Self.accountColumns) WHERE \(conditions.joined(separator: " AND "))
                ORDER BY id DESC LIMIT \(sql.bind(page.limit + 1))
                """)
            let rows = try await connection.rows(sql.query)
            let shown = try rows.prefix(page.limit).map(Self.account(from:))
            return IDPage(items: shown, next: rows.count > page.limit ? shown.last?.id : nil)
        }
    }

    /// Looks the name up by its folded key, suspended or not.
    func account(named username: String) async throws -> ModeratedAccount? {
        try await database.read { connection in
            try await connection.firstRow(
                "\(unescaped: Self.accountColumns) WHERE username_key = \(username.lowercased())"
            ).map(Self.account(from:))
        }
    }

    /// The account a row of `accountColumns` holds; the reason only while suspended.
    private static func account(from row: PostgresRandomAccessRow) throws -> ModeratedAccount {
        let suspendedAt = try row.column("suspended_at", as: Date?.self)
        return ModeratedAccount(
            id: try row.column("id"), username: try row.column("username"), email: try row.column("email"),
            status: suspendedAt == nil ? .active : .suspended, createdAt: try row.column("created_at"),
            suspendedReason: suspendedAt == nil ? nil : try row.column("suspended_reason", as: String?.self))
    }

    /// Marks the account and takes its contributions out of the counters, in one transaction.
    func suspend(_ userID: Int64, reason: String, at now: Date) async throws -> Bool {
        try await database.orderedWrite(reportingTo: observer) { connection in
            let marked = try await connection.value(
                """
                UPDATE users SET suspended_at = \(now.storagePrecision), suspended_reason = \(reason)
                WHERE id = \(userID) AND suspended_at IS NULL RETURNING id
                """, as: Int64.self)
            guard marked != nil else { return (false, []) }
            try await Contributions.move(connection, of: userID, by: -1)
            return (true, [.accountChanged(userID: userID)])
        }
    }

    /// Clears the mark and puts the contributions back, in one transaction.
    func unsuspend(_ userID: Int64) async throws -> Bool {
        try await database.orderedWrite(reportingTo: observer) { connection in
            // Locks the row first: two lifts at once must not both put the contributions back.
            let suspended =
                try await connection.value(
                    "SELECT suspended_at IS NOT NULL FROM users WHERE id = \(userID) FOR UPDATE", as: Bool.self)
                ?? false
            guard suspended else { return (false, []) }
            try await Contributions.move(connection, of: userID, by: 1)
            try await connection.run(
                "UPDATE users SET suspended_at = NULL, suspended_reason = NULL WHERE id = \(userID)")
            return (true, [.accountChanged(userID: userID)])
        }
    }

    /// Reads the mark.
    func suspension(of userID: Int64) async throws -> String? {
        try await database.read { connection in
            guard
                let row = try await connection.firstRow(
                    "SELECT suspended_at, suspended_reason FROM users WHERE id = \(userID)"),
                try row.column("suspended_at", as: Date?.self) != nil
            else { return nil }
            return try row.column("suspended_reason", as: String?.self) ?? ""
        }
    }

    /// Deletes like the author's own deletion does: reposts go with it, a tweet in a conversation leaves a
    /// tombstone.
    func removeTweet(_ id: Int64) async throws -> String {
        try await database.orderedWrite(reportingTo: observer) { connection in
            guard
                let row = try await connection.firstRow(
                    """
                    SELECT tweet.author_id, tweet.repost_of_id, tweet.in_reply_to_id, users.username
                    FROM tweet JOIN users ON users.id = tweet.author_id WHERE tweet.id = \(id)
                    """)
            else { throw TwitterError.notFound("Tweet \(id)") }
            let events = try await TweetDeletion.delete(
                id, authorID: try row.column("author_id"), repostOf: try row.column("repost_of_id"),
                inReplyTo: try row.column("in_reply_to_id"), in: connection)
            return (try row.column("username", as: String.self), events)
        }
    }

    /// Inserts the report and one `admin.report` notification per admin (never to the reporter), in one
    /// transaction: blocks and mutes do not stop a report from reaching the admins.
    func createReport(
        by reporterID: Int64, account accountID: Int64, tweet tweetID: Int64?, reason: String,
        notifying admins: [Int64], at now: Date
    ) async throws -> Int64 {
        try await database.orderedWrite(reportingTo: observer) { connection in
            let stored = now.storagePrecision
            guard
                let reportID = try await connection.value(
                    """
                    INSERT INTO report (reporter_id, account_id, tweet_id, reason, created_at)
                    VALUES (\(reporterID), \(accountID), \(tweetID), \(reason), \(stored)) RETURNING id
                    """, as: Int64.self)
            else { throw TwitterError(.internal, "The report just written has no id") }
            let recipients = Set(admins).subtracting([reporterID]).sorted()
            guard !recipients.isEmpty else { return (reportID, []) }
            var tweet: Tweet?
            if let tweetID { tweet = try await TweetRows.fetchOne(connection, id: tweetID) }
            let actor = try await Interactions.account(connection, reporterID)
            // One insert for every admin, in the admins' order, so ids are given out as SQLite gives them.
            let rows = try await connection.rows(
                """
                INSERT INTO notification (recipient_id, type, actor_id, tweet_id, report_id, created_at)
                SELECT admin, \(ActivityNotification.Kind.adminReport.rawValue)::text, \(reporterID)::bigint,
                    \(tweet?.id)::bigint, \(reportID)::bigint, \(stored)::timestamptz
                FROM unnest(\(recipients)::bigint[]) AS admin ORDER BY admin RETURNING id, recipient_id
                """)
            var ids: [Int64: Int64] = [:]
            for row in rows { ids[try row.column("recipient_id")] = try row.column("id", as: Int64.self) }
            let events: [TweetEvent] = recipients.compactMap { admin in
                ids[admin].map { id in
                    .notified(
                        ActivityNotification(
                            id: id, type: .adminReport, createdAt: now,
                            from: .init(id: actor.id, username: actor.username), tweet: tweet, reportID: reportID),
                        recipientID: admin)
                }
            }
            return (reportID, events)
        }
    }

    /// The columns `report(from:)` reads.
    private static let reportColumns = """
        SELECT report.id, reporter.username AS reporter, account.username AS username, report.tweet_id,
            report.reason, report.status, report.created_at, report.note
        FROM report JOIN users AS reporter ON reporter.id = report.reporter_id
        JOIN users AS account ON account.id = report.account_id
        """

    /// Walks the (status, id) index, or the primary key for every status.
    func reports(status: ReportStatus?, page: PageRequest) async throws -> IDPage<Report> {
        try await database.read { connection in
            var sql = SQL()
            sql.append(Self.reportColumns + " WHERE report.id < \(sql.bind(page.before ?? Int64.max))")
            if let status { sql.append(" AND report.status = \(sql.bind(status.rawValue))") }
            sql.append(" ORDER BY report.id DESC LIMIT \(sql.bind(page.limit + 1))")
            let rows = try await connection.rows(sql.query)
            let shown = try rows.prefix(page.limit).map(Self.report(from:))
            return IDPage(items: shown, next: rows.count > page.limit ? shown.last?.id : nil)
        }
    }

    /// Sets the status and the note, and reads the report back, in one statement; resolving again replaces the
    /// note.
    func resolveReport(_ id: Int64, note: String?, by admin: String, at now: Date) async throws -> Report? {
        try await database.transaction { connection in
            try await connection.firstRow(
                """
                WITH report AS (
                    UPDATE report SET status = 'resolved', note = \(note), resolved_by = \(admin),
                        resolved_at = \(now.storagePrecision)
                    WHERE id = \(id) RETURNING *)
                \(unescaped: Self.reportColumns)
                """
            ).map(Self.report(from:))
        }
    }

    /// The report a row of `reportColumns` holds.
    private static func report(from row: PostgresRandomAccessRow) throws -> Report {
        Report(
            id: try row.column("id"), reporter: try row.column("reporter"), username: try row.column("username"),
            tweetID: try row.column("tweet_id"), reason: try row.column("reason"),
            status: ReportStatus(rawValue: try row.column("status")) ?? .open,
            createdAt: try row.column("created_at"), note: try row.column("note"))
    }

    /// Appends a row.
    func record(_ entry: AuditEntry) async throws -> AuditEntry {
        try await database.transaction { connection in
            guard
                let id = try await connection.value(
                    """
                    INSERT INTO audit_entry (actor, action, target, reason, created_at)
                    VALUES (\(entry.actor), \(entry.action), \(entry.target), \(entry.reason),
                        \(entry.createdAt.storagePrecision))
                    RETURNING id
                    """, as: Int64.self)
            else { throw TwitterError(.internal, "The audit entry just written has no id") }
            var stored = entry
            stored.id = id
            return stored
        }
    }

    /// Walks the primary key newest first.
    func auditEntries(page: PageRequest) async throws -> IDPage<AuditEntry> {
        try await database.read { connection in
            let rows = try await connection.rows(
                """
                SELECT id, actor, action, target, reason, created_at FROM audit_entry
                WHERE id < \(page.before ?? Int64.max) ORDER BY id DESC LIMIT \(page.limit + 1)
                """)
            let shown = try rows.prefix(page.limit).map {
                AuditEntry(
                    id: try $0.column("id"), actor: try $0.column("actor"), action: try $0.column("action"),
                    target: try $0.column("target"), reason: try $0.column("reason"),
                    createdAt: try $0.column("created_at"))
            }
            return IDPage(items: shown, next: rows.count > page.limit ? shown.last?.id : nil)
        }
    }
}
