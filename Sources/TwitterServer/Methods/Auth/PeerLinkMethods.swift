import Foundation
import JSONRPC
import TwitterAPI
import TwitterCore

/// `auth.linkPeer`, `auth.peerLinks` and `auth.unlinkPeer`: which local uids log in as this account with provider
/// "peer", with no secret. A link is as strong as the password, so making one takes the password; the owner sees
/// every link and may remove any; a password change or reset ends them all.
struct PeerLinkMethods {
    let services: AuthServices

    func register(in router: inout Router<RequestContext>) {
        router.register(
            API.Auth.linkPeer, in: .loggedIn,
            { [services] (params: API.Auth.LinkPeerParams, context) in
                let login = context.login
                let uid = context.session.peer.userID
                let confirmation = try await services.confirmPassword(
                    params.password, of: login.userID, peer: context.session.peer, field: "password")
                // An account without a password logs in only through a uid it has; only that kernel's word vouches
                // for it, so it may add no other uid.
                guard confirmation == .confirmed else {
                    throw TwitterError(.forbidden, "An account without a password can not link another uid")
                }
                try await services.peerLinks.linkPeer(uid: uid, userID: login.userID, at: Date())
                return API.Auth.PeerLinked(uid: uid, username: try await services.username(of: login))
            })
        router.register(
            API.Auth.peerLinks, in: .loggedIn,
            { [services] (_: NoParams, context) in
                let login = context.login
                return API.Auth.PeerLinks(
                    links: try await services.peerLinks.links(userID: login.userID).map {
                        API.Auth.PeerLinkSummary(uid: $0.uid, linkedAt: $0.linkedAt, host: $0.host)
                    })
            })
        router.register(
            API.Auth.unlinkPeer, in: .loggedIn,
            { [services] (params: API.Auth.UnlinkPeerParams, context) in
                let login = context.login
                let uid = params.uid ?? context.session.peer.userID
                let removed = try await services.peerLinks.unlinkPeer(uid: uid, userID: login.userID)
                // Connections that logged in through the link end, and so does every session the link minted, live or
                // not, with every connection resting on one, whichever provider it logged in with: twctl resumes its
                // peer session with a token login on every run, and such a connection would otherwise keep what the
                // link gave it. Each store write logs its revocation for the other daemons in its own transaction
                // and fails whole; a failed second one fails the call, and calling again finishes it.
                services.liveLogins.revoke(.peerLink(uid: uid, userID: login.userID), requester: context.session)
                let ended = try await services.sessions.revokeSessions(userID: login.userID, mintedByPeer: uid)
                if !ended.isEmpty {
                    services.liveLogins.revoke(
                        .sessions(ids: ended, userID: login.userID, reason: .peerUnlinked), requester: context.session)
                }
                return API.Auth.PeerUnlinked(uid: uid, unlinked: removed)
            })
    }
}
