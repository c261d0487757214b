/// Makes and ends login sessions; the token plugin provides it, the daemon calls it after any login.
public protocol SessionIssuing: Sendable {
    /// A new session for `userID`, named after the provider that authenticated it; a peer login's remembers the
    /// uid of the link that minted it (`mintedByPeer`), so unlinking that uid ends it wherever it was resumed.
    func issueSession(userID: Int64, provider: String, mintedByPeer: UInt32?) async throws -> IssuedSession
    /// Ends the session `id` of `userID` (`auth.logout`), on every daemon: other daemons are told in the same
    /// transaction.
    func revokeSession(id: Int64, userID: Int64) async throws
    /// Ends every session of `userID` but `keeping`, with `everything` the personal tokens too, and every peer link,
    /// on every daemon (`TokenStoring.endCredentials`); returns the revocations for this daemon's connections.
    func endCredentials(of userID: Int64, keeping: Int64?, everything: Bool, reason: Revocation.Reason)
        async throws -> [Revocation]

    /// Ends every session of `userID` that the link of this host's `uid` minted, live or not, and returns their
    /// ids, so the live connections resting on them (whatever provider resumed them) can be cut off.
    func revokeSessions(userID: Int64, mintedByPeer uid: UInt32) async throws -> [Int64]
}

extension SessionIssuing {
    /// A new session that no peer login minted.
    public func issueSession(userID: Int64, provider: String) async throws -> IssuedSession {
        try await issueSession(userID: userID, provider: provider, mintedByPeer: nil)
    }
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
