import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// `account.export`, `account.delete` and `auth.resetPassword`: an account's data, its end, and a way back in
/// with an admin's help.
struct AccountMethods: MethodGroup {
    let auth: AuthServices
    let community: CommunityServices
    /// The account's conversations, the export's last list; nil when the daemon serves no messages.
    var messages: MessageServices?

    /// List entries per export page: a page of 500 tweets is about 400 KB of JSON.
    static let exportPageSize = 500
    /// Conversation entries per export page: a message may be 1,000 characters of up to 4 bytes, so 100 of them
    /// are about as heavy as a page of tweets.
    static let exportMessagesPerPage = 100

    func register(in router: inout Router<RequestContext>) {
        let (auth, community, messages) = (auth, community, messages)
        router.register(
            API.Account.export, in: .loggedIn,
            { (params: API.Account.ExportParams, context) in
                let login = context.login
                var cursor = ArchiveCursor.start
                if let text = params.cursor {
                    guard let parsed = ArchiveCursor(text) else {
                        throw TwitterError.invalidFields(["cursor": "is not the nextCursor of a page"])
                    }
                    cursor = parsed
                }
                return try await Self.exportPage(
                    of: login.userID, from: cursor, community: community, messages: messages)
            })
        router.register(
            API.Account.delete, in: .loggedIn,
            { (params: API.Account.DeleteParams, context) in
                let login = context.login
                let username = try await Self.confirmDeletion(
                    params, login: login, auth: auth, peer: context.session.peer)
                let reservedUntil = Date(
                    timeIntervalSince1970: (Date().timeIntervalSince1970 + Double(CommunityServices.reservedNameDays)
                        * 86_400)
                        .rounded(.down))
                try await community.accounts.deleteAccount(login.userID, reservingNameUntil: reservedUntil)
                // Every connection of the account ends, this one too (its answer says why).
                auth.liveLogins.revoke(
                    .account(userID: login.userID, reason: .accountDeleted), requester: context.session)
                community.logger.notice("account deleted", metadata: ["username": "\(username)"])
                return API.Account.Deleted(deleted: true, usernameReservedUntil: reservedUntil)
            })
        router.register(
            API.Auth.resetPassword, in: .open,
            { (params: API.Auth.ResetPasswordParams, context) in
                // Guesses count against the e-mail and the peer like failed logins.
                let keys = auth.throttle.keys(
                    account: params.email.trimmingCharacters(in: .whitespaces).lowercased(), peer: context.session.peer)
                try await auth.throttle.check(keys)
                try Validator<API.Auth.ResetPasswordParams>.field(\.newPassword, "newPassword", auth.passwords.policy)
                    .validate(params)
                let userID = try await auth.throttle.guarding(keys) {
                    guard
                        let userID = try await community.accounts.takeResetCode(
                            community.sealer.seal(params.code),
                            email: params.email.trimmingCharacters(in: .whitespaces), at: Date())
                    else {
                        throw TwitterError(
                            .invalidCredentials, "The code is wrong, used or expired", fields: ["code": "is not valid"])
                    }
                    return userID
                }
                try await auth.users.setPasswordHash(try await auth.passwords.hash(params.newPassword), userID: userID)
                // The "I was compromised" path: whatever a thief minted with the old password or a stolen session
                // (sessions, personal tokens, linked uids) ends with it.
                try await auth.endCredentials(
                    of: userID, keeping: nil, everything: true, reason: .passwordReset, requester: nil)
                return API.Auth.PasswordChanged(passwordChanged: true)
            })
    }

    /// One page of the archive: the account store's lists, then, once they end, the conversations with what room
    /// the page has left, each message one entry, so no conversation makes a page larger than any other list does.
    static func exportPage(
        of userID: Int64, from cursor: ArchiveCursor, community: CommunityServices, messages: MessageServices?
    ) async throws -> AccountArchivePage {
        var page =
            cursor.section == .conversations
            ? AccountArchivePage()
            : try await community.accounts.archivePage(of: userID, from: cursor, limit: exportPageSize)
        guard page.next == nil, let messages else { return page }
        let from = cursor.section == .conversations ? cursor : ArchiveCursor(section: .conversations, after: 0)
        let room = min(exportPageSize - page.count, exportMessagesPerPage)
        guard room > 0 else {
            page.next = from
            return page
        }
        (page.conversations, page.next) = try await messages.archive(of: userID, from: from, limit: room)
        return page
    }

    /// An account with a password confirms with it (throttled as a login is); one without (peer logins only) with
    /// its username. Returns the account's name.
    private static func confirmDeletion(
        _ params: API.Account.DeleteParams, login: SessionLogin, auth: AuthServices, peer: PeerCredentials
    ) async throws -> String {
        let username = try await auth.username(of: login)
        let confirmation = try await auth.confirmPassword(
            params.password, of: login.userID, peer: peer, field: "password")
        if confirmation == .noPassword, params.confirm?.lowercased() != username.lowercased() {
            throw TwitterError.invalidFields(["confirm": "must be the account's username, \(username)"])
        }
        return username
    }
}
