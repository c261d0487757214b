import Foundation
import TwitterCore
import TwitterRules

/// Reports: filed with a notification to every admin in the same ordered write, listed and resolved.
extension ModerationStore {
    /// Inserts the report and one `admin.report` notification per admin (never to the reporter), in one
    /// transaction: blocks and mutes do not stop a report from reaching the admins.
    public func createReport(
        by reporterID: Int64, account accountID: Int64, tweet tweetID: Int64?, reason: String,
        notifying admins: [Int64], at now: Date
    ) async throws -> Int64 {
        try await database.orderedWrite { connection in
            let stored = connection.dialect.stored(now)
            guard
                let reportID = try await connection.value(
                    """
                    INSERT INTO reports (reporter_id, account_id, tweet_id, reason, created_at)
                    VALUES (\(reporterID), \(accountID), \(tweetID), \(reason), \(stored)) RETURNING id
                    """, as: Int64.self)
            else { throw TwitterError(.internal, "The report just written has no id") }
            let recipients = ReportRule.recipients(admins: admins, reporter: reporterID)
            guard !recipients.isEmpty else { return (reportID, []) }
            var tweet: Tweet?
            if let tweetID { tweet = try await TweetRows.fetchOne(connection, id: tweetID) }
            // One insert for every admin, in the admins' order, so ids are given out in it.
            var ids: [Int64: Int64] = [:]
            for admin in recipients.sorted() {
                ids[admin] = try await connection.value(
                    SQLQuery(ReportNotification.self, admin, reporterID, tweet?.id, reportID, stored), as: Int64.self)
            }
            let events = ReportRule.events(
                recipients: recipients, ids: ids, reporter: try await NotificationRows.account(connection, reporterID),
                tweet: tweet, reportID: reportID, at: now)
            return (reportID, events)
        }
    }

    /// The columns `report(from:)` reads.
    private static let reportColumns = """
        SELECT reports.id, reporter.username AS reporter, account.username AS username, reports.tweet_id,
            reports.reason, reports.status, reports.created_at, reports.note
        FROM reports JOIN users AS reporter ON reporter.id = reports.reporter_id
        JOIN users AS account ON account.id = reports.account_id
        """

    /// Walks the (status, id) index, or the primary key for every status.
    public func reports(status: ReportStatus?, page: PageRequest) async throws -> IDPage<Report> {
        try await database.read { connection in
            var sql: SQLQuery = "\(unescaped: Self.reportColumns) WHERE reports.id < \(page.before ?? Int64.max)"
            if let status { sql.append(" AND reports.status = \(status.rawValue)") }
            sql.append(" ORDER BY reports.id DESC LIMIT \(page.limit + 1)")
            let rows = try await connection.rows(sql)
            return IDPage(overfetched: try rows.map(Self.report(from:)), limit: page.limit, id: \.id)
        }
    }

    /// Sets the status and the note, and reads the report back, in one statement; resolving again replaces the
    /// note.
    public func resolveReport(_ id: Int64, note: String?, by admin: String, at now: Date) async throws -> Report? {
        try await database.transaction { connection in
            try await connection.run(
                """
                UPDATE reports SET status = 'resolved', note = \(note), resolved_by = \(admin),
                    resolved_at = \(connection.dialect.stored(now))
                WHERE id = \(id)
                """)
            return try await connection.firstRow("\(unescaped: Self.reportColumns) WHERE reports.id = \(id)")
                .map(Self.report(from:))
        }
    }

    private static func report(from row: SQLRow) throws -> Report {
        Report(
            id: try row.column("id"), reporter: try row.column("reporter"), username: try row.column("username"),
            tweetID: try row.column("tweet_id"), reason: try row.column("reason"),
            status: ReportStatus(rawValue: try row.column("status")) ?? .open,
            createdAt: try row.column("created_at"), note: try row.column("note"))
    }

    private enum ReportNotification: SQLText {
        static let sql: SQLQuery = """
            INSERT INTO notifications (recipient_id, type, actor_id, tweet_id, report_id, created_at)
            VALUES (\(param: 1), '\(unescaped: ActivityNotification.Kind.adminReport.rawValue)', \(param: 2), \(param: 3, as: .integer), \(param: 4), \(param: 5)) RETURNING id
            """
    }
}
