import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// `auth.linkPeer`, `auth.peerLinks` and `auth.unlinkPeer`: which local uids log in as an account with provider
/// "peer".
struct PeerLinkRouteTests: RouteTesting {
    static let routes = [API.Auth.linkPeer.name, API.Auth.peerLinks.name, API.Auth.unlinkPeer.name]

    static let peerLogin = API.Auth.LoginParams(provider: "peer", credentials: [:])

    @Test func linkPeerNeedsThePasswordAndLetsThatUIDAloneLogIn() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice", uid: 1000)
        #expect(try await alice.refusal(API.Auth.linkPeer, .init(password: "not the password")).code == -32002)
        #expect(try await alice.refusal(API.Auth.linkPeer, .init(password: nil)).code == -32002)
        #expect(try await daemon.connect(uid: 1000).refusal(API.Auth.login, Self.peerLogin).code == -32002)
        let anonymous = try await daemon.connect(uid: 1000).refusal(
            API.Auth.linkPeer, .init(password: InProcessDaemon.password))
        #expect(anonymous.code == -32001)

        let linked = try await alice.call(API.Auth.linkPeer, .init(password: InProcessDaemon.password))
        #expect(linked.uid == 1000 && linked.username == "alice")
        let sameUID = daemon.connect(uid: 1000)
        #expect(try await sameUID.call(API.Auth.login, Self.peerLogin).user.username == "alice")
        #expect(try await sameUID.call(API.Auth.whoami).role == .user, "a linked uid other than root is no admin")
        #expect(try await daemon.connect(uid: 1001).refusal(API.Auth.login, Self.peerLogin).code == -32002)
    }

    @Test func peerLinksListsTheAccountsOwnLinksOnly() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice", uid: 1000)
        let bob = try await daemon.signUp("bob", uid: 1001)
        _ = try await alice.call(API.Auth.linkPeer, .init(password: InProcessDaemon.password))
        _ = try await bob.call(API.Auth.linkPeer, .init(password: InProcessDaemon.password))
        #expect(try await alice.call(API.Auth.peerLinks).links.map(\.uid) == [1000])
        #expect(try await bob.call(API.Auth.peerLinks).links.map(\.uid) == [1001])
        #expect(try await daemon.connect().refusal(API.Auth.peerLinks).code == -32001)
    }

    @Test func unlinkPeerEndsTheLinkAndTheLoginsMadeThroughIt() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice", uid: 1000)
        _ = try await alice.call(API.Auth.linkPeer, .init(password: InProcessDaemon.password))
        let viaPeer = daemon.connect(uid: 1000)
        _ = try await viaPeer.call(API.Auth.login, Self.peerLogin)

        let bob = try await daemon.signUp("bob", uid: 1001)
        let notBobs = try await bob.call(API.Auth.unlinkPeer, .init(uid: 1000))
        #expect(!notBobs.unlinked, "bob can not remove alice's link")
        #expect(try await daemon.connect(uid: 1000).call(API.Auth.login, Self.peerLogin).user.username == "alice")

        let removed = try await alice.call(API.Auth.unlinkPeer, .init(uid: 1000))
        #expect(removed.unlinked && removed.uid == 1000)
        #expect(try await alice.call(API.Auth.peerLinks).links.isEmpty)
        #expect(try await viaPeer.refusal(API.Auth.whoami).code == -32001, "the login through the link ends")
        #expect(try await daemon.connect(uid: 1000).refusal(API.Auth.login, Self.peerLogin).code == -32002)
        #expect(try await alice.call(API.Auth.whoami).user.username == "alice", "the password login stays")
        #expect(try await daemon.connect().refusal(API.Auth.unlinkPeer, .init()).code == -32001)
    }
}
