import Foundation
import TwitterCore
import TwitterRules

/// Suspensions, reports and the audit log. Standing changes are reported as
/// `AccountEvent.standingChanged`, report notifications as `AccountEvent.notified`, so both are ordered writes.
public struct ModerationStore: ModerationStoring {
    let database: ObservedDatabase

    /// Creates the store; suspensions and removals are reported to `observer`.
    public init(database: any SQLDatabase, observer: any CommitObserving) {
        self.database = ObservedDatabase(database: database, observer: observer)
    }

    /// The columns `account(from:)` reads.
    private static let accountColumns =
        "SELECT id, username, email, created_at, suspended_at, suspended_reason, role FROM users"

    /// Walks the primary key newest first, filtering by a `LIKE` on the folded username and e-mail.
    public func accounts(matching query: String?, status: AccountStatus?, page: PageRequest) async throws -> IDPage<
        ModeratedAccount
    > {
        try await database.read { connection in
            var conditions: [SQLQuery] = ["id < \(page.before ?? Int64.max)"]
            if let query, !query.isEmpty {
                let pattern = "%" + SQLPattern.likeEscaped(query.lowercased()) + "%"
                conditions.append("(username_key LIKE \(pattern) ESCAPE '\\' OR email_key LIKE \(pattern) ESCAPE '\\')")
            }
            switch status {
            case .active: conditions.append("suspended_at IS NULL")
            case .suspended: conditions.append("suspended_at IS NOT NULL")
            case nil: break
            }
            let sql: SQLQuery = """
                \(unescaped: Self.accountColumns) WHERE \(conditions.joined(separator: " AND "))
                ORDER BY id DESC LIMIT \(page.limit + 1)
                """
            let rows = try await connection.rows(sql)
            return IDPage(overfetched: try rows.map(Self.account(from:)), limit: page.limit, id: \.id)
        }
    }

    /// Looks the name up by its folded key, suspended or not.
    public func account(named username: String) async throws -> ModeratedAccount? {
        try await database.read { connection in
            try await connection.firstRow(
                "\(unescaped: Self.accountColumns) WHERE username_key = \(username.lowercased())"
            ).map(Self.account(from:))
        }
    }

    /// The account a row of `accountColumns` holds; the reason only while suspended.
    private static func account(from row: SQLRow) throws -> ModeratedAccount {
        let suspendedAt = try row.column("suspended_at", as: Date?.self)
        return ModeratedAccount(
            id: try row.column("id"), username: try row.column("username"), email: try row.column("email"),
            status: suspendedAt == nil ? .active : .suspended, createdAt: try row.column("created_at"),
            suspendedReason: suspendedAt == nil ? nil : try row.column("suspended_reason", as: String?.self),
            role: AccountRole(rawValue: try row.column("role", as: String.self)) ?? .user)
    }

    /// Marks the account and takes its contributions out of the counters, in one transaction with the entry that
    /// ends its live connections on the other daemons (`Revocation.account`, suspended).
    public func suspend(_ userID: Int64, reason: String, at now: Date) async throws -> Bool {
        let revoked = CommitEvent.account(.revoked(.account(userID: userID, reason: .suspended)))
        return try await changeStanding(.suspend, of: userID, telling: [revoked]) { connection in
            try await connection.run(
                """
                UPDATE users SET suspended_at = \(connection.dialect.stored(now)), suspended_reason = \(reason) WHERE id = \(userID)
                """)
        }
    }

    /// Clears the mark and puts the contributions back, in one transaction.
    public func unsuspend(_ userID: Int64) async throws -> Bool {
        try await changeStanding(.unsuspend, of: userID) { connection in
            try await connection.run(
                "UPDATE users SET suspended_at = NULL, suspended_reason = NULL WHERE id = \(userID)")
        }
    }

    /// Reads the standing with the row locked (two moderators at once must not both move the counters), and
    /// writes the mark and the counters as `StandingRule` plans.
    private func changeStanding(
        _ change: StandingRule.Change, of userID: Int64, telling revocations: [CommitEvent] = [],
        mark: @escaping @Sendable (any SQLConnection) async throws -> Void
    ) async throws -> Bool {
        try await database.orderedWrite { connection in
            let isSuspended =
                try await connection.value(
                    "SELECT suspended_at IS NOT NULL FROM users WHERE id = \(userID)\(lock: .forUpdate)", as: Bool.self)
                ?? false
            guard let plan = StandingRule.plan(change, of: userID, isSuspended: isSuspended) else { return (false, []) }
            try await mark(connection)
            try await Contributions.move(connection, of: userID, by: plan.contributionSign)
            return (true, revocations + plan.events)
        }
    }

    /// Reads the mark.
    public func suspension(of userID: Int64) async throws -> String? {
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
    public func removeTweet(_ id: Int64) async throws -> String {
        try await database.orderedWrite { connection in
            guard
                let row = try await connection.firstRow(
                    """
                    SELECT tweets.author_id, tweets.repost_of_id, tweets.in_reply_to_id, users.username
                    FROM tweets JOIN users ON users.id = tweets.author_id WHERE tweets.id = \(id)
                    """)
            else { throw TwitterError.notFound("Tweet \(id)") }
            let events = try await TweetDeletion.delete(
                id, authorID: try row.column("author_id"), repostOf: try row.column("repost_of_id"),
                inReplyTo: try row.column("in_reply_to_id"), in: connection)
            return (try row.column("username", as: String.self), events)
        }
    }

    /// Appends a row.
    public func record(_ entry: AuditEntry) async throws -> AuditEntry {
        try await database.transaction { connection in
            guard
                let id = try await connection.value(
                    """
                    INSERT INTO audit_entries (actor, action, target, reason, created_at)
                    VALUES (\(entry.actor), \(entry.action), \(entry.target), \(entry.reason),
                        \(connection.dialect.stored(entry.createdAt)))
                    RETURNING id
                    """, as: Int64.self)
            else { throw TwitterError(.internal, "The audit entry just written has no id") }
            var stored = entry
            stored.id = id
            return stored
        }
    }

    /// Walks the primary key newest first.
    public func auditEntries(page: PageRequest) async throws -> IDPage<AuditEntry> {
        try await database.read { connection in
            let rows = try await connection.rows(
                """
                SELECT id, actor, action, target, reason, created_at FROM audit_entries
                WHERE id < \(page.before ?? Int64.max) ORDER BY id DESC LIMIT \(page.limit + 1)
                """)
            let entries = try rows.map {
                AuditEntry(
                    id: try $0.column("id"), actor: try $0.column("actor"), action: try $0.column("action"),
                    target: try $0.column("target"), reason: try $0.column("reason"),
                    createdAt: try $0.column("created_at"))
            }
            return IDPage(overfetched: entries, limit: page.limit, id: \.id)
        }
    }
}
