import JSONRPC
import TwitterAPI
import TwitterCore

/// `auth.linkPeer` / `auth.unlinkPeer`: let the caller's local uid log in as this account with provider "peer".
struct PeerLinkMethods {
    let services: AuthServices

    func register(in router: inout Router<RequestContext>) {
        router.register(
            API.Auth.linkPeer,
            .awaited { [services] (_: NoParams, context) in
                let login = try context.session.requireLogin()
                let uid = context.session.peer.userID
                try await services.peerLinks.linkPeer(uid: uid, userID: login.userID)
                return API.Auth.PeerLinked(uid: uid, username: login.username)
            })
        router.register(
            API.Auth.unlinkPeer,
            .awaited { [services] (_: NoParams, context) in
                let login = try context.session.requireLogin()
                let uid = context.session.peer.userID
                let removed = try await services.peerLinks.unlinkPeer(uid: uid, userID: login.userID)
                // Connections that logged in through the link end (here and on other daemons), and so do the
                // sessions peer logins were given, live or not: all of the account's peer sessions, since a
                // session does not record its uid (an account with several linked uids logs in again on the others).
                services.liveLogins.revoke(.peerLink(uid: uid, userID: login.userID), requester: context.session)
                try await services.sessions.revokeSessions(userID: login.userID, givenBy: "peer")
                return API.Auth.PeerUnlinked(uid: uid, unlinked: removed)
            })
    }
}
