import Foundation

/// Sessions and personal tokens: makes, finds and ends them, whichever provider logged the user in. The only
/// code that sees a token's secret, and only in passing; how secrets are made and sealed is `TokenSealing`'s.
public struct SessionService: SessionIssuing, PersonalTokenManaging {
    private let store: any TokenStoring
    private let sealer: any TokenSealing
    private let sessionLifetime: TimeInterval
    private let now: @Sendable () -> Date

    /// Creates the service; sessions last `sessionDays` from their last use.
    public init(
        store: any TokenStoring, sealer: any TokenSealing, sessionDays: Int = 30,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.store = store
        self.sealer = sealer
        self.sessionLifetime = TimeInterval(sessionDays) * 86_400
        self.now = now
    }

    /// A new session, remembering the peer link that minted it, if one did.
    public func issueSession(userID: Int64, provider: String, mintedByPeer: UInt32?) async throws -> IssuedSession {
        let token = sealer.makeToken(kind: .session)
        let moment = now()
        let record = try await store.insertToken(
            userID: userID, kind: .session, name: provider, hash: sealer.seal(token), createdAt: moment,
            expiresAt: moment.addingTimeInterval(sessionLifetime), mintedByPeer: mintedByPeer
        )
        return IssuedSession(id: record.id, token: token, expiresAt: record.expiresAt, kind: .session)
    }

    /// Ends one session, logged out.
    public func revokeSession(id: Int64, userID: Int64) async throws {
        _ = try await store.revokeToken(id: id, userID: userID, reason: .loggedOut, at: now())
    }

    /// Ends every other session, and more with `everything`, in one transaction with the other daemons' entry.
    public func endCredentials(
        of userID: Int64, keeping: Int64?, everything: Bool, reason: Revocation.Reason
    ) async throws -> [Revocation] {
        try await store.endCredentials(of: userID, keeping: keeping, everything: everything, reason: reason, at: now())
    }

    /// Ends every session the link of `uid` minted for `userID`, in one statement.
    public func revokeSessions(userID: Int64, mintedByPeer uid: UInt32) async throws -> [Int64] {
        try await store.revokeSessions(userID: userID, mintedByPeer: uid, at: now())
    }

    /// A new personal token.
    public func createPersonalToken(
        userID: Int64, name: String, expiresInDays: Int?
    ) async throws -> (record: TokenRecord, token: String) {
        let token = sealer.makeToken(kind: .personal)
        let moment = now()
        let record = try await store.insertToken(
            userID: userID, kind: .personal, name: name, hash: sealer.seal(token), createdAt: moment,
            expiresAt: expiresInDays.map { moment.addingTimeInterval(TimeInterval($0) * 86_400) }
        )
        return (record, token)
    }

    /// The owner's personal tokens.
    public func personalTokens(userID: Int64) async throws -> [TokenRecord] {
        try await store.tokens(userID: userID, kind: .personal)
    }

    /// Revokes a token of the owner.
    public func revokeToken(id: Int64, userID: Int64) async throws -> Bool {
        try await store.revokeToken(id: id, userID: userID, reason: .tokenRevoked, at: now())
    }

    /// The live token record for `token`, after recording its use; nil when it is malformed, unknown,
    /// revoked or expired.
    public func redeem(_ token: String) async throws -> TokenRecord? {
        guard let kind = sealer.kind(of: token), var record = try await store.token(hash: sealer.seal(token)),
            record.kind == kind, record.revokedAt == nil
        else { return nil }
        let moment = now()
        if let expiresAt = record.expiresAt, expiresAt <= moment { return nil }
        // Last use is written at most once a minute, so a busy script does not turn reads into writes.
        if record.lastUsedAt.map({ moment.timeIntervalSince($0) >= 60 }) ?? true {
            let slid = record.kind == .session ? moment.addingTimeInterval(sessionLifetime) : nil
            try await store.touchToken(id: record.id, usedAt: moment, expiresAt: slid)
            record.lastUsedAt = moment
            if let slid { record.expiresAt = slid }
        }
        return record
    }
}
