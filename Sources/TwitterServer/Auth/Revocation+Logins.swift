import TwitterCore

extension Revocation.Reason {
    /// For people: the end of "Logged out: …".
    var explanation: String {
        switch self {
        case .loggedOut: "the session was logged out on another connection"
        case .tokenRevoked: "the token was revoked"
        case .passwordChanged: "the account's password was changed"
        case .peerUnlinked: "the peer login of this uid was unlinked"
        case .suspended: "the account was suspended"
        case .accountDeleted: "the account was deleted"
        case .passwordReset: "the account's password was reset"
        case .expired: "the session or token expired"
        case .roleChanged: "the account's admin role changed; log in again"
        }
    }
}

extension Revocation {
    /// True when a connection logged in as `login`, from a peer with uid `peerUID`, rests on what this revokes.
    func covers(_ login: SessionLogin, peerUID: UInt32) -> Bool {
        switch self {
        case .token(let id, let userID, _):
            login.userID == userID && login.tokenID == id
        case .otherSessions(let userID, let keeping):
            login.userID == userID && login.sessionID != nil && login.sessionID != keeping
        case .peerLink(let uid, let userID):
            login.userID == userID && login.provider == "peer" && peerUID == uid
        case .sessions(let ids, let userID, _):
            login.userID == userID && login.sessionID.map(ids.contains) == true
        case .account(let userID, _):
            login.userID == userID
        }
    }
}
