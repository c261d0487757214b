/// Makes and ends login sessions; the token plugin provides it, the daemon calls it after any login.
public protocol SessionIssuing: Sendable {
    /// A new session for `userID`, named after the provider that authenticated it.
    func issueSession(userID: Int64, provider: String) async throws -> IssuedSession
    /// Ends the session `id` of `userID` (`auth.logout`), on every daemon: other daemons are told in the same
    /// transaction.
    func revokeSession(id: Int64, userID: Int64) async throws
    /// Ends every session of `userID` but `keeping`, with `everything` the personal tokens too, and every peer link,
    /// on every daemon (`TokenStoring.endCredentials`); returns the revocations for this daemon's connections.
    func endCredentials(of userID: Int64, keeping: Int64?, everything: Bool, reason: Revocation.Reason)
        async throws -> [Revocation]

    /// Ends every session of `userID` that a login through `provider` gave, live or not, on any daemon.
    func revokeSessions(userID: Int64, givenBy provider: String) async throws
}

/// Personal access tokens for scripts: made, listed and revoked by their owner.
public protocol PersonalTokenManaging: Sendable {
    /// A new token; its secret is in the result and nowhere else.
    func createPersonalToken(userID: Int64, name: String, expiresInDays: Int?) async throws
        -> (record: TokenRecord, token: String)
    /// The owner's live personal tokens, without secrets.
    func personalTokens(userID: Int64) async throws -> [TokenRecord]
    /// Revokes a session or personal token of `userID` (`tokens.revoke`), on every daemon: other daemons are told
    /// in the same transaction. False when there is no such live token.
    func revokeToken(id: Int64, userID: Int64) async throws -> Bool
}

/// Password hashing and policy, as signup and password changes need them.
public protocol PasswordHashing: Sendable {
    /// The password rules (length in code points after NFKC normalisation).
    var policy: Validator<String> { get }
    /// Hashes a password for storage.
    func hash(_ password: String) async throws -> String
    /// Checks a password against a stored hash.
    func verify(_ password: String, against hash: String) async throws -> Bool
}
