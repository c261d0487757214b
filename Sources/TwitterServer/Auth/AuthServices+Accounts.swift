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
    /// a link is as strong as the password that changed. One transaction with the entries that tell the other
    /// daemons (`TokenStoring.endCredentials`); then the live connections here resting on what ended are cut off.
    func endCredentials(
        of userID: Int64, keeping: Int64?, everything: Bool, reason: Revocation.Reason,
        requester: ConnectionSession?
    ) async throws {
        let revocations = try await sessions.endCredentials(
            of: userID, keeping: keeping, everything: everything, reason: reason)
        for revocation in revocations { liveLogins.revoke(revocation, requester: requester) }
    }
}
