import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// `admin.*`: every method is declared `.admin`, so the dispatch refuses anyone else with -32003 before a
/// handler runs; each action is recorded in the audit log.
struct AdminMethods: MethodGroup {
    let auth: AuthServices
    let community: CommunityServices

    func register(in router: inout Router<RequestContext>) {
        let (moderation, auth, community) = (community.moderation, auth, community)
        router.register(
            API.Admin.usersList, in: .admin,
            { (params: API.Admin.UserListParams, _) in
                let request = try PageCursor.request(.people, limit: params.limit, cursor: params.cursor)
                let page = try await moderation.accounts(matching: params.query, status: params.status, page: request)
                return API.Admin.UserPage(
                    users: page.items.map { auth.adminView(of: $0) }, nextCursor: page.next.map(String.init))
            })
        router.register(
            API.Admin.suspend, in: .admin,
            { (params: API.Admin.SuspendParams, context) in
                let admin = context.login
                let reason = try Self.text(params.reason, field: "reason")
                return try await changeStanding(of: params.username, API.Admin.suspend, reason: reason, by: admin) {
                    account in
                    guard account.id != admin.userID else {
                        throw TwitterError.invalidFields(["username": "You can not suspend yourself"])
                    }
                    _ = try await moderation.suspend(account.id, reason: reason, at: Date())
                    // Its connections end now, as a revocation ends them; its logins are refused from here on.
                    auth.liveLogins.revoke(.account(userID: account.id, reason: .suspended))
                }
            })
        router.register(
            API.Admin.unsuspend, in: .admin,
            { (params: API.Users.UsernameParams, context) in
                let admin = context.login
                return try await changeStanding(of: params.username, API.Admin.unsuspend, reason: nil, by: admin) {
                    _ = try await moderation.unsuspend($0.id)
                }
            })
        router.register(
            API.Admin.resetPassword, in: .admin,
            { (params: API.Users.UsernameParams, context) in
                let admin = context.login
                let account = try await Self.account(params.username, moderation)
                let code = community.sealer.makeToken(kind: .passwordReset)
                // Whole seconds: the stored time and the answered one agree.
                let expiresAt = Date(
                    timeIntervalSince1970: (Date().timeIntervalSince1970 + CommunityServices.resetCodeLifetime).rounded(
                        .down))
                try await community.accounts.storeResetCode(
                    community.sealer.seal(code), for: account.id, expiresAt: expiresAt)
                try await audit(API.Admin.resetPassword, by: admin, target: account.username)
                return API.Admin.ResetCode(code: code, expiresAt: expiresAt)
            })
        router.register(
            API.Admin.deleteTweet, in: .admin,
            { (params: API.Admin.DeleteTweetParams, context) in
                let admin = context.login
                let reason = try Self.text(params.reason, field: "reason")
                let author = try await moderation.removeTweet(params.id)
                try await audit(
                    API.Admin.deleteTweet, by: admin, target: "tweet \(params.id) by \(author)", reason: reason)
                return API.Tweets.Deleted(deleted: true)
            })
        router.register(
            API.Admin.reportsList, in: .admin,
            { (params: API.Admin.ReportListParams, _) in
                let request = try PageCursor.request(.people, limit: params.limit, cursor: params.cursor)
                let page = try await moderation.reports(status: params.status, page: request)
                return API.Admin.ReportPage(
                    reports: page.items, nextCursor: page.next.map(String.init))
            })
        router.register(
            API.Admin.resolve, in: .admin,
            { (params: API.Admin.ResolveParams, context) in
                let admin = context.login
                let note = try params.note.map { try Self.text($0, field: "note") }
                guard
                    let report = try await moderation.resolveReport(
                        params.id, note: note, by: try await auth.username(of: admin), at: Date())
                else { throw TwitterError.notFound("Report \(params.id)") }
                try await audit(API.Admin.resolve, by: admin, target: "report \(params.id)", reason: note)
                return report
            })
        router.register(
            API.Admin.auditList, in: .admin,
            { (params: API.Admin.AuditListParams, _) in
                let page = try await moderation.auditEntries(
                    page: try PageCursor.request(.people, limit: params.limit, cursor: params.cursor))
                return API.Admin.AuditPage(
                    entries: page.items, nextCursor: page.next.map(String.init))
            })
        AdminRoleMethods(auth: auth, community: community).register(in: &router)
    }

    /// Changes the standing of the account `username` names, as `admin`: `change` does it to the account, the
    /// change is audited as `method`, and the answer is the account as it is after.
    private func changeStanding<Params, Result>(
        of username: String, _ method: RPCMethod<Params, Result>, reason: String?, by admin: SessionLogin,
        _ change: (ModeratedAccount) async throws -> Void
    ) async throws -> API.Admin.User {
        let account = try await Self.account(username, community.moderation)
        try await change(account)
        try await audit(method, by: admin, target: account.username, reason: reason)
        return auth.adminView(of: try await Self.account(username, community.moderation))
    }

    /// Records in the audit log that `admin` called `method` on `target`, under the admin's username now.
    private func audit<Params, Result>(
        _ method: RPCMethod<Params, Result>, by admin: SessionLogin, target: String, reason: String? = nil
    ) async throws {
        try await community.audit(auth.username(of: admin), method.name, target: target, reason: reason)
    }

    /// The account named `username`, suspended or not; -32004 when there is none.
    static func account(_ username: String, _ moderation: any ModerationStoring) async throws -> ModeratedAccount {
        guard let account = try await moderation.account(named: username) else {
            throw TwitterError.notFound("User \(username)")
        }
        return account
    }

    /// The most characters of a reason or a note.
    static let maximumTextLength = 500

    /// `text` normalised as every free text is (`FreeText`): one line of 1 to 500 characters, no control
    /// characters (an escape in a reason reached the admin's terminal); -32602 naming `field` otherwise.
    static func text(_ text: String, field: String) throws -> String {
        let normalized = FreeText.normalize(text)
        let label = field.prefix(1).uppercased() + field.dropFirst()
        let rule = FreeText.validator(
            label, allowsNewlines: false,
            length: .length(
                1...maximumTextLength, tooShort: "must be 1 to \(maximumTextLength) characters",
                tooLong: "must be 1 to \(maximumTextLength) characters"))
        try Validator<String>.field(\.self, field, rule).validate(normalized)
        return normalized
    }
}

extension AuthServices {
    /// An account as `admin.users.*` answer it.
    func adminView(of account: ModeratedAccount) -> API.Admin.User {
        API.Admin.User(
            username: account.username, email: account.email, role: account.role,
            status: account.status, createdAt: account.createdAt, suspendedReason: account.suspendedReason)
    }
}
