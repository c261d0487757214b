import Foundation
import TwitterCore

extension AuthServices {
    /// The account's name as it is now: a connection knows its account by id, and a name can change hands.
    func username(of login: SessionLogin) async throws -> String {
        guard let user = try await users.user(id: login.userID) else { throw TwitterError.notFound("Account") }
        return user.username
    }

    /// Takes back every credential of `userID` but the session `keeping`: the other sessions, and with
    /// `everything` (a reset, the "I was compromised" path) the personal tokens too; every peer link always, since
    /// a link is as strong as the password that changed. Live connections resting on what ended are cut off.
    func endCredentials(
        of userID: Int64, keeping: Int64?, everything: Bool, reason: Revocation.Reason,
        requester: ConnectionSession?
    ) async throws {
        try await sessions.revokeOtherSessions(userID: userID, keeping: keeping)
        if everything {
            for token in try await tokens.personalTokens(userID: userID) {
                _ = try await tokens.revokeToken(id: token.id, userID: userID)
            }
        }
        let unlinked = try await peerLinks.unlinkAll(userID: userID)
        if everything {
            await liveLogins.revoke(.account(userID: userID, reason: reason), requester: requester)
        } else {
            await liveLogins.revoke(.otherSessions(userID: userID, keeping: keeping), requester: requester)
            for uid in unlinked { await liveLogins.revoke(.peerLink(uid: uid, userID: userID), requester: requester) }
        }
    }
}
