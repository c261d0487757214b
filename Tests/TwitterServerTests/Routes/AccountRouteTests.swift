import Foundation
import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// `account.export` and `account.delete`: an account's own data, and its end.
struct AccountRouteTests: RouteTesting {
    static let routes = [API.Account.export.name, API.Account.delete.name]

    @Test func exportHoldsTheCallersOwnDataOnly() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let tweet = try await alice.call(API.Tweets.post, .init(text: "mine"))
        _ = try await bob.call(API.Tweets.post, .init(text: "bob's"))
        _ = try await alice.call(API.Users.follow, .init(username: "bob"))
        _ = try await alice.call(API.Tweets.like, .init(id: tweet.id))
        _ = try await alice.call(API.Users.mute, .init(username: "bob"))
        let archive = try await alice.call(API.Account.export, .init())
        #expect(archive.profile?.username == "alice" && archive.profile?.email == "alice@example.com")
        #expect(archive.tweets.map(\.text) == ["mine"])
        #expect(archive.follows.map(\.username) == ["bob"] && archive.mutes.map(\.username) == ["bob"])
        #expect(archive.likes.count == 1 && archive.blocks.isEmpty)
        #expect(try await bob.call(API.Account.export, .init()).tweets.map(\.text) == ["bob's"])
        #expect(try await alice.refusal(API.Account.export, .init(cursor: "garbage")).code == -32602)
        #expect(try await daemon.connect().refusal(API.Account.export, .init()).code == -32001)
    }

    @Test func deleteNeedsThePasswordEndsEveryLoginAndReservesTheName() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let phone = daemon.connect()
        _ = try await phone.call(API.Auth.login, AuthRouteTests.passwordLogin("alice@example.com"))
        _ = try await alice.call(API.Tweets.post, .init(text: "gone soon"))
        #expect(try await alice.refusal(API.Account.delete, .init(password: "not it at all")).code == -32002)
        #expect(try await alice.refusal(API.Account.delete, .init(confirm: "alice")).code == -32002)
        #expect(try await daemon.connect().refusal(API.Account.delete, .init(password: "x")).code == -32001)

        let deleted = try await alice.call(API.Account.delete, .init(password: InProcessDaemon.password))
        #expect(deleted.deleted && deleted.usernameReservedUntil.timeIntervalSinceNow > 29 * 86_400)
        #expect(try await alice.refusal(API.Auth.whoami).code == -32001)
        #expect(try await phone.refusal(API.Auth.whoami).code == -32001)
        #expect(try await bob.call(API.Tweets.fetch, .init()).tweets.isEmpty, "what it made goes with it")
        #expect(try await bob.refusal(API.Users.get, .init(username: "alice")).code == -32004)
        let login = try await daemon.connect().refusal(
            API.Auth.login, AuthRouteTests.passwordLogin("alice@example.com"))
        #expect(login.code == -32002)
        let taken = try await daemon.connect().refusal(
            API.Auth.signup, .init(email: "new@example.com", password: InProcessDaemon.password, username: "alice"))
        #expect(taken.code == -32005, "the name stays reserved")
    }

    @Test func deleteOfAnAccountWithoutAPasswordTakesItsNameAsConfirmation() async throws {
        let daemon = try await InProcessDaemon()
        // An account that logs in only through its uid, as `twitterd migrate-data` or a seed can leave one.
        let carol = try await daemon.services.auth.users.createUser(
            email: "carol@example.com", username: "carol", passwordHash: nil)
        try await daemon.services.auth.peerLinks.linkPeer(uid: 2000, userID: carol.id, at: Date())
        let viaPeer = daemon.connect(uid: 2000)
        _ = try await viaPeer.call(API.Auth.login, PeerLinkRouteTests.peerLogin)
        #expect(try await viaPeer.refusal(API.Account.delete, .init()).code == -32602)
        #expect(try await viaPeer.refusal(API.Account.delete, .init(confirm: "alice")).code == -32602)
        #expect(try await viaPeer.call(API.Account.delete, .init(confirm: "CAROL")).deleted)
        #expect(
            try await daemon.connect(uid: 2000).refusal(API.Auth.login, PeerLinkRouteTests.peerLogin).code == -32002)
    }
}
