/// A credential that stopped being valid, described by what it covered, so that every live connection that
/// rests on it can be found and cut off at once.
public enum Revocation: Sendable, Equatable, Codable {
    /// One session or personal token (`auth.logout`, `tokens.revoke`).
    case token(id: Int64, userID: Int64, reason: Reason)
    /// Every session of an account but one (a password change keeps the caller's session).
    case otherSessions(userID: Int64, keeping: Int64?)
    /// The link of a local uid to an account (a password change): peer logins of that uid end.
    case peerLink(uid: UInt32, userID: Int64)
    /// Sessions of an account, by id, whatever provider resumed them on whichever connection (`auth.unlinkPeer`
    /// ends every session the link minted).
    case sessions(ids: [Int64], userID: Int64, reason: Reason)
    /// Every login of an account: it was suspended or deleted, its password was reset, or its role changed.
    case account(userID: Int64, reason: Reason)

    /// Why a connection was logged out, as `auth.revoked` and the -32001 that follows it say.
    public enum Reason: String, Sendable, Codable {
        /// The session was ended by `auth.logout` on another connection.
        case loggedOut
        /// The session or personal token was revoked with `tokens.revoke`.
        case tokenRevoked
        /// The account's password changed, which ends every other session.
        case passwordChanged
        /// The uid's peer login was unlinked.
        case peerUnlinked
        /// An admin suspended the account.
        case suspended
        /// The account was deleted.
        case accountDeleted
        /// The account's password was reset with a code from an admin.
        case passwordReset
        /// The session or token expired while the connection was open.
        case expired
        /// An admin granted or revoked the account's admin role: logging in again gives the new one.
        case roleChanged
    }

    /// Why the affected connections are logged out.
    public var reason: Reason {
        switch self {
        case .token(_, _, let reason): reason
        case .otherSessions: .passwordChanged
        case .peerLink: .peerUnlinked
        case .sessions(_, _, let reason): reason
        case .account(_, let reason): reason
        }
    }
}
