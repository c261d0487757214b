import Foundation
import PostgresNIO
import TwitterCore

/// Suspensions, reports and the audit log in PostgreSQL.
struct ModerationStore: ModerationStoring {
    let database: PostgresStore
    let observer: any TweetCommitObserving

    func accounts(matching query: String?, status: AccountStatus?, page: PageRequest) async throws -> IDPage<
        ModeratedAccount
    > {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func account(named username: String) async throws -> ModeratedAccount? {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func suspend(_ userID: Int64, reason: String, at now: Date) async throws -> Bool {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func unsuspend(_ userID: Int64) async throws -> Bool {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func suspension(of userID: Int64) async throws -> String? {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func removeTweet(_ id: Int64) async throws -> String {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func createReport(
        by reporterID: Int64, account accountID: Int64, tweet tweetID: Int64?, reason: String,
        notifying admins: [Int64], at now: Date
    ) async throws -> Int64 {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func reports(status: ReportStatus?, page: PageRequest) async throws -> IDPage<Report> {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func resolveReport(_ id: Int64, note: String?, by admin: String, at now: Date) async throws -> Report? {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func record(_ entry: AuditEntry) async throws -> AuditEntry {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }

    func auditEntries(page: PageRequest) async throws -> IDPage<AuditEntry> {
        throw TwitterError(.internal, "not on PostgreSQL yet")
    }
}
