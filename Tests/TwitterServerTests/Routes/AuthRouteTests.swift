import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// `auth.*`: signing up, logging in and out, who am I, and passwords.
struct AuthRouteTests: RouteTesting {
    static let routes = [
        API.Auth.providers.name, API.Auth.signup.name, API.Auth.login.name, API.Auth.logout.name,
        API.Auth.whoami.name, API.Auth.changePassword.name, API.Auth.resetPassword.name,
    ]

    static func passwordLogin(_ email: String, _ password: String = InProcessDaemon.password) -> API.Auth.LoginParams {
        .init(provider: "password", credentials: ["email": .string(email), "password": .string(password)])
    }

    static func tokenLogin(_ token: String) -> API.Auth.LoginParams {
        .init(provider: "token", credentials: ["token": .string(token)])
    }

    @Test func providersListsEachEnabledProviderAndItsCredentialsWithoutALogin() async throws {
        let daemon = try await InProcessDaemon()
        let providers = try await daemon.connect().call(API.Auth.providers)
        #expect(Set(providers.map(\.name)) == ["password", "token", "peer"])
        let password = try #require(providers.first { $0.name == "password" })
        #expect(Set(password.credentials.map(\.name)) == ["email", "password"])
        #expect(providers.first { $0.name == "peer" }?.credentials.isEmpty == true, "the kernel vouches")
    }

    @Test func signupLogsTheConnectionInAndRefusesATakenNameOrABadAddress() async throws {
        let daemon = try await InProcessDaemon()
        let alice = daemon.connect()
        let signedUp = try await alice.call(
            API.Auth.signup, .init(email: " alice@example.com ", password: InProcessDaemon.password, username: "alice"))
        #expect(signedUp.user.username == "alice")
        #expect(signedUp.user.email == "alice@example.com", "trimmed")
        #expect(signedUp.session.token.hasPrefix("tws_"))
        #expect(try await alice.call(API.Auth.whoami).user.id == signedUp.user.id)

        let other = daemon.connect()
        let taken = try await other.refusal(
            API.Auth.signup, .init(email: "other@example.com", password: InProcessDaemon.password, username: "ALICE"))
        #expect(taken.code == -32005, "usernames are unique without case")
        let sameAddress = try await other.refusal(
            API.Auth.signup, .init(email: "alice@example.com", password: InProcessDaemon.password, username: "bob"))
        #expect(sameAddress.code == -32005)
        let badAddress = try await other.refusal(
            API.Auth.signup, .init(email: "not an address", password: InProcessDaemon.password))
        #expect(badAddress.code == -32602)
        let shortPassword = try await other.refusal(
            API.Auth.signup, .init(email: "carol@example.com", password: "short"))
        #expect(shortPassword.code == -32602)
        #expect(try await other.refusal(API.Auth.whoami).code == -32001, "a refused signup logs nobody in")
    }

    @Test func signupsPerUIDAreLimitedButNotRoots() async throws {
        let daemon = try await InProcessDaemon { $0.community.signupRate = RateLimit(count: 1, period: 3600) }
        _ = try await daemon.signUp("first", uid: 1000)
        let second = daemon.connect(uid: 1000)
        let refused = try await second.refusal(
            API.Auth.signup, .init(email: "second@example.com", password: InProcessDaemon.password))
        #expect(refused.code == -32006)
        _ = try await daemon.signUp("third", uid: 1001)
        _ = try await daemon.signUp("rootone", uid: 0)
        _ = try await daemon.signUp("roottwo", uid: 0)
    }

    @Test func loginWithAPasswordOrASessionTokenAndNotWithAWrongOne() async throws {
        let daemon = try await InProcessDaemon()
        let alice = daemon.connect()
        let token = try await alice.call(
            API.Auth.signup, .init(email: "alice@example.com", password: InProcessDaemon.password)
        ).session.token

        let laptop = daemon.connect()
        let login = try await laptop.call(API.Auth.login, Self.passwordLogin("ALICE@example.com"))
        #expect(login.user.username == "alice")
        #expect(try await laptop.call(API.Auth.whoami).provider == "password")
        let resumed = daemon.connect()
        #expect(try await resumed.call(API.Auth.login, Self.tokenLogin(token)).session.token == token)

        let stranger = daemon.connect()
        let wrong = try await stranger.refusal(
            API.Auth.login, Self.passwordLogin("alice@example.com", "wrong password"))
        #expect(wrong.code == -32002)
        let unknown = try await stranger.refusal(API.Auth.login, Self.passwordLogin("nobody@example.com"))
        #expect(unknown.code == -32002, "an unknown address is refused as a wrong password is")
        let forged = try await stranger.refusal(API.Auth.login, Self.tokenLogin("tws_forged"))
        #expect(forged.code == -32002)
        let noProvider = try await stranger.refusal(API.Auth.login, .init(provider: "magic", credentials: [:]))
        #expect(noProvider.code == -32602)
        let noPassword = try await stranger.refusal(
            API.Auth.login, .init(provider: "password", credentials: ["email": "alice@example.com"]))
        #expect(noPassword.code == -32602)
        #expect(try await stranger.refusal(API.Auth.whoami).code == -32001)
    }

    @Test func logoutEndsTheConnectionsLoginAndItsSession() async throws {
        let daemon = try await InProcessDaemon()
        let alice = daemon.connect()
        let token = try await alice.call(
            API.Auth.signup, .init(email: "alice@example.com", password: InProcessDaemon.password)
        ).session.token
        let twin = daemon.connect()
        _ = try await twin.call(API.Auth.login, Self.tokenLogin(token))

        #expect(try await alice.call(API.Auth.logout).loggedOut)
        #expect(try await alice.refusal(API.Auth.whoami).code == -32001)
        #expect(try await twin.refusal(API.Auth.whoami).code == -32001, "a connection resuming the session ends too")
        #expect(twin.inbox.takeAll().first?["method"] == "auth.revoked")
        #expect(try await daemon.connect().refusal(API.Auth.login, Self.tokenLogin(token)).code == -32002)
        #expect(try await daemon.connect().refusal(API.Auth.logout).code == -32001, "no login, nothing to log out")
    }

    @Test func whoamiNamesTheAccountTheProviderAndTheRole() async throws {
        let daemon = try await InProcessDaemon()
        #expect(try await daemon.connect().refusal(API.Auth.whoami).code == -32001)
        let alice = try await daemon.signUp("alice")
        let me = try await alice.call(API.Auth.whoami)
        #expect(me.user.username == "alice")
        #expect(me.provider == "password")
        #expect(me.role == .user)
        #expect(me.expiresAt != nil, "a session expires")
        let admin = try await daemon.admin()
        #expect(try await admin.call(API.Auth.whoami).role == .admin)
        #expect(try await admin.call(API.Auth.whoami).provider == "peer")
    }

    @Test func changePasswordNeedsTheCurrentOneAndEndsTheOtherSessions() async throws {
        let daemon = try await InProcessDaemon()
        let alice = try await daemon.signUp("alice")
        let phone = daemon.connect()
        _ = try await phone.call(API.Auth.login, Self.passwordLogin("alice@example.com"))

        let wrong = try await alice.refusal(
            API.Auth.changePassword, .init(currentPassword: "not it at all", newPassword: "a new password"))
        #expect(wrong.code == -32002)
        let weak = try await alice.refusal(
            API.Auth.changePassword, .init(currentPassword: InProcessDaemon.password, newPassword: "short"))
        #expect(weak.code == -32602)
        let anonymous = try await daemon.connect().refusal(
            API.Auth.changePassword, .init(currentPassword: InProcessDaemon.password, newPassword: "a new password"))
        #expect(anonymous.code == -32001)

        _ = try await alice.call(
            API.Auth.changePassword, .init(currentPassword: InProcessDaemon.password, newPassword: "a new password"))
        #expect(try await alice.call(API.Auth.whoami).user.username == "alice", "this connection stays")
        #expect(try await phone.refusal(API.Auth.whoami).code == -32001, "the other session ends")
        let old = try await daemon.connect().refusal(API.Auth.login, Self.passwordLogin("alice@example.com"))
        #expect(old.code == -32002)
        _ = try await daemon.connect().call(API.Auth.login, Self.passwordLogin("alice@example.com", "a new password"))
    }

    @Test func resetPasswordTakesAnAdminsCodeOnceAndEndsEverySession() async throws {
        let daemon = try await InProcessDaemon()
        let admin = try await daemon.admin()
        let alice = try await daemon.signUp("alice")
        let code = try await admin.call(API.Admin.resetPassword, .init(username: "alice")).code

        let stranger = daemon.connect(uid: 1001)
        let wrongCode = try await stranger.refusal(
            API.Auth.resetPassword, .init(email: "alice@example.com", code: code + "x", newPassword: "a new password"))
        #expect(wrongCode.code == -32002)
        let otherAccount = try await stranger.refusal(
            API.Auth.resetPassword, .init(email: "root@example.com", code: code, newPassword: "a new password"))
        #expect(otherAccount.code == -32002, "a code is good for its own account only")
        _ = try await stranger.call(
            API.Auth.resetPassword, .init(email: "alice@example.com", code: code, newPassword: "a new password"))
        #expect(try await alice.refusal(API.Auth.whoami).code == -32001, "every session ends")
        let again = try await stranger.refusal(
            API.Auth.resetPassword, .init(email: "alice@example.com", code: code, newPassword: "another password"))
        #expect(again.code == -32002, "a code is used once")
        _ = try await daemon.connect().call(API.Auth.login, Self.passwordLogin("alice@example.com", "a new password"))
    }
}
