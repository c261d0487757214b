import Foundation

/// What kind of token a record is.
public enum TokenKind: String, Sendable, Codable {
    /// A login session, made by auth.login or auth.signup; expires and slides forward on use.
    case session
    /// A personal access token for scripts, made by tokens.create.
    case personal
    /// A one-time password reset code, made by admin.users.resetPassword; never a login.
    case passwordReset
}

// @MemberwiseInit
/// A stored token, without its secret: the daemon keeps only a keyed hash.
public struct TokenRecord: Sendable, Equatable {
    /// The token's id.
    public var id: Int64
    /// Its owner.
    public var userID: Int64
    /// Session or personal.
    public var kind: TokenKind
    /// A name for people (personal tokens) or the provider that made the session.
    public var name: String
    /// When it was created.
    public var createdAt: Date
    /// When it expires, if it does.
    public var expiresAt: Date?
    /// When it was last used (recorded at most once a minute).
    public var lastUsedAt: Date?
    /// When it was revoked, if it was.
    public var revokedAt: Date?
    /// The OAuth app of an OAuth access token (a personal token an app was granted); nil for any other.
    public var appID: Int64?
    /// An OAuth access token's scopes; nil for a token that may do everything (sessions, personal tokens).
    public var scopes: OAuthScopes?
}

/// Durable storage of tokens, found by their keyed hash.
public protocol TokenStoring: Sendable {
    /// Stores a new token and returns its record; a session a peer login minted remembers the uid of the link
    /// that minted it (`mintedByPeer`, a uid of the store's host), so unlinking that uid ends it.
    func insertToken(
        userID: Int64, kind: TokenKind, name: String, hash: [UInt8], createdAt: Date, expiresAt: Date?,
        mintedByPeer: UInt32?
    ) async throws -> TokenRecord
    /// The token whose hash is `hash`.
    func token(hash: [UInt8]) async throws -> TokenRecord?
    /// Records a use, and moves the expiry when `expiresAt` is given (sliding sessions).
    func touchToken(id: Int64, usedAt: Date, expiresAt: Date?) async throws
    /// Revokes the token `id` of `userID` and logs `Revocation.token` with `reason` for the other daemons on the
    /// database, in one transaction: the revocation commits only with the entry that ends its live connections
    /// everywhere. False, and nothing logged, when there is no such live token.
    func revokeToken(id: Int64, userID: Int64, reason: Revocation.Reason, at date: Date) async throws -> Bool
    /// Ends every session of `userID` but `keeping`, with `everything` its personal tokens too, and every link of
    /// a uid to it, and logs what ended for the other daemons (`Revocation.account` with `reason` for
    /// `everything`; otherwise `otherSessions` and each unlinked uid's `peerLink`), in one transaction. Returns
    /// the revocations, for this daemon's own live connections.
    func endCredentials(
        of userID: Int64, keeping: Int64?, everything: Bool, reason: Revocation.Reason, at date: Date
    ) async throws -> [Revocation]
    /// Revokes every live session of `userID` that the link of this host's `uid` minted (and the peer sessions
    /// minted before sessions remembered their link, which may be its), returning their ids, and logs
    /// `Revocation.sessions` for the other daemons in the same transaction when any ended.
    func revokeSessions(userID: Int64, mintedByPeer uid: UInt32, at date: Date) async throws -> [Int64]
    /// The tokens of `userID` of `kind`, newest first, revoked ones left out.
    func tokens(userID: Int64, kind: TokenKind) async throws -> [TokenRecord]
}

extension TokenStoring {
    /// Stores a new token that no peer login minted.
    public func insertToken(
        userID: Int64, kind: TokenKind, name: String, hash: [UInt8], createdAt: Date, expiresAt: Date?
    ) async throws -> TokenRecord {
        try await insertToken(
            userID: userID, kind: kind, name: name, hash: hash, createdAt: createdAt, expiresAt: expiresAt,
            mintedByPeer: nil)
    }
}
