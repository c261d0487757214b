import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// `tokens.*`: personal access tokens, minted with the password and revoked by their owner.
struct TokenRouteTests: RouteTesting {
    static let routes = [API.Tokens.create.name, API.Tokens.list.name, API.Tokens.revoke.name]

    @Test func createNeedsThePasswordAndMintsATokenThatLogsInButMintsNoOther() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        #expect(try await alice.refusal(API.Tokens.create, .init(name: "ci", password: nil)).code == -32002)
        #expect(try await alice.refusal(API.Tokens.create, .init(name: "ci", password: "wrong one")).code == -32002)
        #expect(
            try await alice.refusal(API.Tokens.create, .init(name: "", password: InProcessDaemon.password)).code
                == -32602)
        let anonymous = try await daemon.connect().refusal(
            API.Tokens.create, .init(name: "ci", password: InProcessDaemon.password))
        #expect(anonymous.code == -32001)

        let created = try await alice.call(
            API.Tokens.create, .init(name: "ci", expiresInDays: 7, password: InProcessDaemon.password))
        #expect(created.token.hasPrefix("twp_") && created.name == "ci" && created.expiresAt != nil)
        let script = daemon.connect()
        _ = try await script.call(API.Auth.login, AuthRouteTests.tokenLogin(created.token))
        #expect(try await script.call(API.Auth.whoami).user.username == "alice")
        let minted = try await script.refusal(
            API.Tokens.create, .init(name: "more", password: InProcessDaemon.password))
        #expect(minted.code == -32003, "a personal token's login never mints another credential")
    }

    @Test func listShowsTheAccountsTokensWithoutSecrets() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let created = try await alice.call(API.Tokens.create, .init(name: "backup", password: InProcessDaemon.password))
        let listed = try await alice.call(API.Tokens.list)
        #expect(listed.map(\.id) == [created.id] && listed.map(\.name) == ["backup"])
        #expect(try await bob.call(API.Tokens.list).isEmpty, "bob sees none of alice's tokens")
        let raw = try await alice.call(API.Tokens.list.name)
        #expect(raw[0]?["token"] == nil, "the secret is shown once, by tokens.create")
        #expect(try await daemon.connect().refusal(API.Tokens.list).code == -32001)
    }

    @Test func revokeEndsTheTokenAndItsLoginsButOnlyForItsOwner() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let bob = try await daemon.signUp("bob")
        let created = try await alice.call(API.Tokens.create, .init(name: "ci", password: InProcessDaemon.password))
        let script = daemon.connect()
        _ = try await script.call(API.Auth.login, AuthRouteTests.tokenLogin(created.token))

        #expect(try await bob.refusal(API.Tokens.revoke, .init(id: created.id)).code == -32004)
        #expect(try await script.call(API.Auth.whoami).user.username == "alice", "bob's attempt changed nothing")
        #expect(try await alice.call(API.Tokens.revoke, .init(id: created.id)).revoked)
        #expect(try await script.refusal(API.Auth.whoami).code == -32001)
        #expect(try await alice.call(API.Tokens.list).isEmpty)
        let again = try await daemon.connect().refusal(API.Auth.login, AuthRouteTests.tokenLogin(created.token))
        #expect(again.code == -32002)
        #expect(try await alice.refusal(API.Tokens.revoke, .init(id: created.id)).code == -32004)
    }
}
