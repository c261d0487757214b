import ArgumentParser
import JSONRPC
import TwitterAPI
import TwitterCore

extension AccountStatus: ExpressibleByArgument {}

/// One account as an admin line: `@name  email  status (reason)`.
private func describe(_ user: API.Admin.User) -> String {
    var line = "\(Terminal.bold("@" + user.username))  \(user.email)  \(user.status.rawValue)"
    if user.role == .admin { line += "  admin" }
    if let reason = user.suspendedReason { line += "  (\(reason))" }
    return line
}

/// `twctl admin users`.
struct AdminUsers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "users", abstract: "Accounts, newest first.")

    @OptionGroup var options: GlobalOptions
    @Option(help: "Part of the username or e-mail.") var query: String?
    @Option(help: "active or suspended.") var status: AccountStatus?
    @OptionGroup var page: AdminPage

    func run() async throws {
        let params = API.Admin.UserListParams(query: query, status: status, limit: page.limit, cursor: page.cursor)
        try await options.callAndPrint(API.Admin.usersList, params) { users, output in
            if users.users.isEmpty { output.note("No accounts.") }
            for user in users.users { print(describe(user)) }
            output.nextAdminPage(users.nextCursor)
        }
    }
}

/// `twctl admin suspend`.
struct AdminSuspend: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suspend",
        abstract: "Suspend an account: it is logged out and hidden everywhere until unsuspended.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "The account.") var username: String
    @Option(help: "Why; the account is told when it tries to log in.") var reason: String

    func run() async throws {
        try await options.callAndPrint(API.Admin.suspend, .init(username: username, reason: reason)) { user, _ in
            print(describe(user))
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
        try await options.callAndPrint(API.Admin.unsuspend, .init(username: username)) { user, _ in
            print(describe(user))
        }
    }
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
        try await options.callAndPrint(API.Admin.resetPassword, .init(username: username)) { reset, output in
            print(reset.code)
            output.note("Valid until \(Timestamp.string(from: reset.expiresAt)); it is shown only now.")
        }
    }
}

/// `twctl admin grant`.
enum AdminGrant: Verb {
    static let configuration = CommandConfiguration(
        commandName: "grant", abstract: "Make an account an admin (the role stays with the account through renames).")
    static let method = API.Admin.grantRole
    static func done(_: AccountTarget, _ answer: API.Admin.RoleChanged) -> String {
        roleChange(answer, now: "an admin now", before: "an admin")
    }
}

/// `twctl admin revoke`.
enum AdminRevoke: Verb {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Take the admin role from an account; its connections end.")
    static let method = API.Admin.revokeRole
    static func done(_: AccountTarget, _ answer: API.Admin.RoleChanged) -> String {
        roleChange(answer, now: "no longer an admin", before: "not an admin")
    }
}

/// What grant and revoke say: `@name is <now>.`, or `@name was <before> already.` when the account had that role.
private func roleChange(_ answer: API.Admin.RoleChanged, now: String, before: String) -> String {
    answer.changed ? "@\(answer.username) is \(now)." : "@\(answer.username) was \(before) already."
}
