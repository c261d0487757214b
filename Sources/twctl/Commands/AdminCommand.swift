import ArgumentParser
import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// `twctl admin …`: run the community. Every subcommand needs a login with the admin role.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "Moderate: accounts, suspensions, reports, tweets, the audit log.",
        subcommands: [
            AdminUsers.self, AdminSuspend.self, AdminUnsuspend.self, AdminResetPassword.self, AdminDeleteTweet.self,
            AdminReports.self, AdminResolve.self, AdminAudit.self, VerbCommand<AdminGrant>.self,
            VerbCommand<AdminRevoke>.self,
        ])
}

/// `--limit` and `--cursor` of the admin listings, which leave the default limit to the daemon.
struct AdminPage: ParsableArguments {
    @Option(help: "How many, 1 to 200.") var limit: Int?
    @Option(help: "The cursor a previous page printed.") var cursor: String?

    /// The page as the methods take it.
    var params: API.PageParams { .init(limit: limit, cursor: cursor) }
}

extension Output {
    /// Under an admin listing, how to read the next page.
    func nextAdminPage(_ cursor: String?) {
        nextPage(cursor, hint: "More: --cursor")
    }
}

extension ReportStatus: ExpressibleByArgument {}

/// `twctl admin delete-tweet`.
struct AdminDeleteTweet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-tweet", abstract: "Delete anyone's tweet, with a reason for the audit log.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The tweet's id.") var id: Int64
    @Option(help: "Why.") var reason: String

    func run() async throws {
        try await options.callAndPrint(API.Admin.deleteTweet, .init(id: id, reason: reason)) { _, output in
            output.note("Deleted tweet \(id).")
        }
    }
}

/// `twctl admin reports`.
struct AdminReports: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reports", abstract: "Reports, newest first.")

    @OptionGroup var options: GlobalOptions
    @Option(help: "open or resolved.") var status: ReportStatus?
    @OptionGroup var page: AdminPage

    func run() async throws {
        let params = API.Admin.ReportListParams(status: status, limit: page.limit, cursor: page.cursor)
        try await options.callAndPrint(API.Admin.reportsList, params) { reports, output in
            if reports.reports.isEmpty { output.note("No reports.") }
            for report in reports.reports {
                let about = report.tweetID.map { "tweet \($0) by @\(report.username)" } ?? "@\(report.username)"
                // A reason's lines after the first (a reported message's text) are indented, so none passes
                // for a report of its own.
                let reason = report.reason.split(separator: "\n", omittingEmptySubsequences: false)
                    .joined(separator: "\n    ")
                print("#\(report.id) [\(report.status.rawValue)] @\(report.reporter) reported \(about): \(reason)")
                if let note = report.note { print("    note: \(note)") }
            }
            output.nextAdminPage(reports.nextCursor)
        }
    }
}

/// `twctl admin resolve`.
struct AdminResolve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resolve", abstract: "Mark a report resolved.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The report's id.") var id: Int64
    @Option(help: "What was done.") var note: String?

    func run() async throws {
        try await options.callAndPrint(API.Admin.resolve, .init(id: id, note: note)) { _, output in
            output.note("Report \(id) resolved.")
        }
    }
}

/// `twctl admin audit`.
struct AdminAudit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "The admins' actions, newest first.")

    @OptionGroup var options: GlobalOptions
    @OptionGroup var page: AdminPage

    func run() async throws {
        try await options.callAndPrint(API.Admin.auditList, page.params) { audit, output in
            if audit.entries.isEmpty { output.note("Nothing yet.") }
            for entry in audit.entries {
                let reason = entry.reason.map { ": \($0)" } ?? ""
                print(
                    "\(Timestamp.string(from: entry.createdAt)) @\(entry.actor) \(entry.action) \(entry.target)\(reason)"
                )
            }
            output.nextAdminPage(audit.nextCursor)
        }
    }
}
