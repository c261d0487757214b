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
                // Connections that logged in through the link end, and so do the sessions they were given.
                let cut = services.liveLogins.revoke(
                    .peerLink(uid: uid, userID: login.userID), requester: context.session)
                for sessionID in cut.compactMap(\.sessionID) {
                    try await services.sessions.revokeSession(id: sessionID, userID: login.userID)
                }
                return API.Auth.PeerUnlinked(uid: uid, unlinked: removed)
            })
    }
}
