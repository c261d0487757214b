import ArgumentParser
import Foundation
import JSONRPC
import TwitterAPI
import TwitterClient
import TwitterCore

/// `twctl admin …`: run the community. Every subcommand needs a login with the admin role.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "Moderate: accounts, suspensions, reports, tweets, the audit log.",
        subcommands: [
            AdminUsers.self, AdminSuspend.self, AdminUnsuspend.self, AdminResetPassword.self, AdminDeleteTweet.self,
            AdminReports.self, AdminResolve.self, AdminAudit.self, AdminGrant.self, AdminRevoke.self,
        ])
}

/// Calls one admin method with the saved session and prints the answer as JSON or through `human`.
private func callAdmin<Params: Encodable & Sendable, Result: Decodable & Sendable>(
    _ options: GlobalOptions, _ method: RPCMethod<Params, Result>, _ params: Params, human: (Result) -> Void
) async throws {
    let answer = try await DaemonConnection.run(options, login: .required) { connection in
        try await connection.answer(method, params)
    }
    if options.json { return Output(options: options).json(answer.json) }
    human(answer.result)
}

/// One account as an admin line: `@name  email  status (reason)`.
private func describe(_ user: API.Admin.User) -> String {
    var line = "\(Terminal.bold("@" + user.username))  \(user.email)  \(user.status.rawValue)"
    if user.role == .admin { line += "  admin" }
    if let reason = user.suspendedReason { line += "  (\(reason))" }
    return line
}

/// The `nextCursor` hint shown under a page.
private func more(_ cursor: String?, _ options: GlobalOptions) {
    if let cursor { Output(options: options).note("More: --cursor \(cursor)") }
}

/// `twctl admin users`.
struct AdminUsers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "users", abstract: "Accounts, newest first.")

    @OptionGroup var options: GlobalOptions
    @Option(help: "Part of the username or e-mail.") var query: String?
    @Option(help: "active or suspended.") var status: AccountStatus?
    @Option(help: "How many, 1 to 200.") var limit: Int?
    @Option(help: "The cursor a previous page printed.") var cursor: String?

    func run() async throws {
        try await callAdmin(
            options, API.Admin.usersList, .init(query: query, status: status, limit: limit, cursor: cursor)
        ) { page in
            if page.users.isEmpty { Output(options: options).note("No accounts.") }
            for user in page.users { print(describe(user)) }
            more(page.nextCursor, options)
        }
    }
}

extension AccountStatus: ExpressibleByArgument {}
extension ReportStatus: ExpressibleByArgument {}

/// `twctl admin suspend`.
struct AdminSuspend: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suspend",
        abstract: "Suspend an account: it is logged out and hidden everywhere until unsuspended.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The account.") var username: String
    @Option(help: "Why; the account is told when it tries to log in.") var reason: String

    func run() async throws {
        try await callAdmin(options, API.Admin.suspend, .init(username: username, reason: reason)) {
            print(describe($0))
        }
    }
}

/// `twctl admin unsuspend`.
struct AdminUnsuspend: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unsuspend", abstract: "Lift a suspension: the account and its content come back unchanged.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The account.") var username: String

    func run() async throws {
        try await callAdmin(options, API.Admin.unsuspend, .init(username: username)) { print(describe($0)) }
    }
}

/// Stores `role` for `username` and says what changed.
private func changeRole(_ options: GlobalOptions, _ role: AccountRole, of username: String) async throws {
    let method = role == .admin ? API.Admin.grantRole : API.Admin.revokeRole
    try await callAdmin(options, method, .init(username: username)) { answer in
        let (now, before) = role == .admin ? ("an admin now", "an admin") : ("no longer an admin", "not an admin")
        Output(options: options).note(
            answer.changed ? "@\(answer.username) is \(now)." : "@\(answer.username) was \(before) already.")
    }
}

/// `twctl admin grant`.
struct AdminGrant: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grant", abstract: "Make an account an admin (the role stays with the account through renames).")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The account.") var username: String

    func run() async throws { try await changeRole(options, .admin, of: username) }
}

/// `twctl admin revoke`.
struct AdminRevoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Take the admin role from an account; its connections end.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The account.") var username: String

    func run() async throws { try await changeRole(options, .user, of: username) }
}

/// `twctl admin reset-password`.
struct AdminResetPassword: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-password",
        abstract: "A one-time code, valid one hour, for the account's owner to set a new password with.",
        discussion: "The owner runs: twctl reset-password --email EMAIL --code CODE")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The account.") var username: String

    func run() async throws {
        try await callAdmin(options, API.Admin.resetPassword, .init(username: username)) { answer in
            print(answer.code)
            Output(options: options).note(
                "Valid until \(Timestamp.string(from: answer.expiresAt)); it is shown only now.")
        }
    }
}

/// `twctl admin delete-tweet`.
struct AdminDeleteTweet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-tweet", abstract: "Delete anyone's tweet, with a reason for the audit log.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The tweet's id.") var id: Int64
    @Option(help: "Why.") var reason: String

    func run() async throws {
        try await callAdmin(options, API.Admin.deleteTweet, .init(id: id, reason: reason)) { _ in
            Output(options: options).note("Deleted tweet \(id).")
        }
    }
}

/// `twctl admin reports`.
struct AdminReports: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reports", abstract: "Reports, newest first.")

    @OptionGroup var options: GlobalOptions
    @Option(help: "open or resolved.") var status: ReportStatus?
    @Option(help: "How many, 1 to 200.") var limit: Int?
    @Option(help: "The cursor a previous page printed.") var cursor: String?

    func run() async throws {
        try await callAdmin(options, API.Admin.reportsList, .init(status: status, limit: limit, cursor: cursor)) {
            page in
            if page.reports.isEmpty { Output(options: options).note("No reports.") }
            for report in page.reports {
                let about = report.tweetID.map { "tweet \($0) by @\(report.username)" } ?? "@\(report.username)"
                print(
                    "#\(report.id) [\(report.status.rawValue)] @\(report.reporter) reported \(about): \(report.reason)")
                if let note = report.note { print("    note: \(note)") }
            }
            more(page.nextCursor, options)
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
        try await callAdmin(options, API.Admin.resolve, .init(id: id, note: note)) { _ in
            Output(options: options).note("Report \(id) resolved.")
        }
    }
}

/// `twctl admin audit`.
struct AdminAudit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "The admins' actions, newest first.")

    @OptionGroup var options: GlobalOptions
    @Option(help: "How many, 1 to 200.") var limit: Int?
    @Option(help: "The cursor a previous page printed.") var cursor: String?

    func run() async throws {
        try await callAdmin(options, API.Admin.auditList, .init(limit: limit, cursor: cursor)) { page in
            if page.entries.isEmpty { Output(options: options).note("Nothing yet.") }
            for entry in page.entries {
                let reason = entry.reason.map { ": \($0)" } ?? ""
                print(
                    "\(Timestamp.string(from: entry.createdAt)) @\(entry.actor) \(entry.action) \(entry.target)\(reason)"
                )
            }
            more(page.nextCursor, options)
        }
    }
}
