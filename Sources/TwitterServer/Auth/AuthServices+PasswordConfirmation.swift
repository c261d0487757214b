import TwitterCore

extension AuthServices {
    /// Whether an account has a password to confirm with.
    enum PasswordConfirmation {
        /// The password given is the account's.
        case confirmed
        /// The account has no password (it logs in through its linked uid only).
        case noPassword
    }

    /// Checks that `password` is the password of `userID`, for a method that needs it (a password or e-mail
    /// change, deleting the account, linking a uid, minting a token).
    ///
    /// Every check counts against the login throttle under the same keys as `auth.login` with that account's
    /// e-mail from this peer, so a connection holding only a token guesses no faster than a login form allows:
    /// -32006 with `retryAfter` while it must wait, -32002 naming `field` when the password is wrong or missing.
    func confirmPassword(
        _ password: String?, of userID: Int64, peer: PeerCredentials, field: String
    ) async throws -> PasswordConfirmation {
        guard let user = try await users.user(id: userID) else { throw TwitterError.notFound("Account") }
        guard let stored = try await users.passwordHash(userID: userID) else { return .noPassword }
        let keys = throttle.keys(account: user.email.lowercased(), peer: peer)
        try await throttle.guarding(keys) {
            guard let password, try await passwords.verify(password, against: stored) else {
                let what = field == "currentPassword" ? "The current password" : "The password"
                throw TwitterError(
                    .invalidCredentials, "\(what) is \(password == nil ? "missing" : "wrong")",
                    fields: [field: password == nil ? "is required" : "is wrong"])
            }
        }
        return .confirmed
    }
}
