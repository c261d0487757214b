import JSONRPC
import TwitterCore

/// `auth.linkPeer` / `auth.unlinkPeer`: let the caller's local uid log in as this account with provider "peer".
struct PeerLinkMethods {
    let services: AuthServices

    struct Linked: Encodable {
        let uid: UInt32
        let username: String
    }

    struct Unlinked: Encodable {
        let uid: UInt32
        let unlinked: Bool
    }

    func register(in router: inout Router<RequestContext>) {
        router.register(
            Self.link,
            .awaited { [services] (_: NoParams, context) in
                let login = try context.session.requireLogin()
                let uid = context.session.peer.userID
                try await services.peerLinks.linkPeer(uid: uid, userID: login.userID)
                return Linked(uid: uid, username: login.username)
            })
        router.register(
            Self.unlink,
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
                return Unlinked(uid: uid, unlinked: removed)
            })
    }

    static let link = MethodDescriptor(
        "auth.linkPeer",
        summary: "Links the calling process's uid (SO_PEERCRED) to this account, for provider \"peer\".",
        result: .object([
            Property("uid", .integer("The linked uid."), required: true),
            Property("username", .string(), required: true),
        ])
    )

    static let unlink = MethodDescriptor(
        "auth.unlinkPeer", summary: "Removes the link of the calling process's uid to this account.",
        result: .object([
            Property("uid", .integer(), required: true),
            Property("unlinked", .boolean("False when no link existed."), required: true),
        ])
    )
}
