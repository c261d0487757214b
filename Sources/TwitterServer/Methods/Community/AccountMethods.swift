import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// `account.export`, `account.delete` and `auth.resetPassword`: an account's data, its end, and a way back in
/// with an admin's help.
struct AccountMethods: MethodGroup {
    let auth: AuthServices
    let community: CommunityServices

    /// List entries per export page: a page of 500 tweets is about 400 KB of JSON.
    static let exportPageSize = 500

    func register(in router: inout Router<RequestContext>) {
        let (auth, community) = (auth, community)
        router.register(
            API.Account.export,
            .awaited { (params: API.Account.ExportParams, context) in
                let login = try context.session.requireLogin()
                var cursor = ArchiveCursor.start
                if let text = params.cursor {
                    guard let parsed = ArchiveCursor(text) else {
                        throw TwitterError.invalidFields(["cursor": "is not the nextCursor of a page"])
                    }
                    cursor = parsed
                }
                return try await community.accounts.archivePage(
                    of: login.userID, from: cursor, limit: Self.exportPageSize)
            })
        router.register(
            API.Account.delete,
            .awaited { (params: API.Account.DeleteParams, context) in
                let login = try context.session.requireLogin()
                try await Self.confirmDeletion(params, login: login, auth: auth)
                let reservedUntil = Date(
                    timeIntervalSince1970: (Date().timeIntervalSince1970 + Double(CommunityServices.reservedNameDays)
                        * 86_400)
                        .rounded(.down))
                try await community.accounts.deleteAccount(login.userID, reservingNameUntil: reservedUntil)
                // Every connection of the account ends, this one too (its answer says why).
                auth.liveLogins.revoke(
                    .account(userID: login.userID, reason: .accountDeleted), requester: context.session)
                community.logger.notice("account deleted", metadata: ["username": "\(login.username)"])
                return API.Account.Deleted(deleted: true, usernameReservedUntil: reservedUntil)
            })
        router.register(
            API.Auth.resetPassword,
            .awaited { (params: API.Auth.ResetPasswordParams, context) in
                // Guesses count against the e-mail and the peer like failed logins.
                let keys = LoginThrottle.keys(
                    account: params.email.trimmingCharacters(in: .whitespaces).lowercased(), peer: context.session.peer)
                try await auth.throttle.check(keys)
                try Validator<API.Auth.ResetPasswordParams>.field(\.newPassword, "newPassword", auth.passwords.policy)
                    .validate(params)
                guard
                    let userID = try await community.accounts.takeResetCode(
                        community.sealer.seal(params.code), email: params.email.trimmingCharacters(in: .whitespaces),
                        at: Date())
                else {
                    try await auth.throttle.recordFailure(keys)
                    throw TwitterError(
                        .invalidCredentials, "The code is wrong, used or expired", fields: ["code": "is not valid"])
                }
                try await auth.throttle.recordSuccess(keys)
                try await auth.users.setPasswordHash(try await auth.passwords.hash(params.newPassword), userID: userID)
                try await auth.sessions.revokeOtherSessions(userID: userID, keeping: nil)
                auth.liveLogins.revoke(.account(userID: userID, reason: .passwordReset))
                return API.Auth.PasswordChanged(passwordChanged: true)
            })
    }

    /// An account with a password confirms with it; one without (peer logins only) with its username.
    private static func confirmDeletion(
        _ params: API.Account.DeleteParams, login: SessionLogin, auth: AuthServices
    ) async throws {
        if let stored = try await auth.users.passwordHash(userID: login.userID) {
            guard let password = params.password, try await auth.passwords.verify(password, against: stored) else {
                throw TwitterError(
                    .invalidCredentials, "The password is wrong", fields: ["password": "is wrong or missing"])
            }
        } else {
            guard params.confirm?.lowercased() == login.username.lowercased() else {
                throw TwitterError.invalidFields(["confirm": "must be the account's username, \(login.username)"])
            }
        }
    }
}
