import JSONRPC
import Testing
import TwitterAPI
import TwitterCore

@testable import TwitterServer

/// The rules of auth.* and tokens.* that once took a daemon process each: which methods are open, what every bad
/// field says, and what a provider the configuration leaves out does.
extension AuthRouteTests {
    @Test func everyMethodButTheOpenOnesNeedsALogin() async throws {
        let daemon = try await InProcessDaemon()
        let anonymous = daemon.connect()
        let document = try await anonymous.call(API.System.discover)
        guard case .array(let methods)? = document["methods"] else {
            Issue.record("no methods")
            return
        }
        let open: Set<String> = [
            "auth.signup", "auth.login", "auth.providers", "auth.resetPassword", "rpc.discover", "system.ping",
            "system.version", "system.health", "system.limits",
            // OAuth's own: each takes an app's credentials (or makes an app), as Mastodon's /oauth/* and /api/v1/apps.
            "oauth.apps.register", "oauth.token", "oauth.revoke", "oauth.apps.verify",
            // What the public web pages show anyone (#52): read as nobody.
            "web.user", "web.timeline", "web.thread",
        ]
        for method in methods {
            guard case .string(let name)? = method["name"] else { continue }
            #expect((method["x-authentication"] == "none") == open.contains(name), "\(name)")
            if !open.contains(name) {
                #expect(try await anonymous.refusal(name, [:]).code == -32001, "\(name)")
            }
        }
    }

    @Test func signupReportsEveryBadFieldAtOnceAndTakenFieldsByName() async throws {
        let daemon = try await InProcessDaemon()
        let connection = daemon.connect()
        let invalid = try await connection.refusal(
            "auth.signup", ["email": "not-an-address", "password": "short", "username": "has space"])
        #expect(invalid.code == -32602)
        #expect(invalid.data["fields"]?["email"] == "Email is not a valid address")
        #expect(invalid.data["fields"]?["password"] == "Password must be at least 8 characters")
        #expect(invalid.data["fields"]?["username"] == "Username must be 1 to 15 letters, digits or underscores")
        _ = try await daemon.signUp("bob")
        let taken = try await connection.refusal(
            "auth.signup", ["email": "BOB@example.com", "password": "correct horse battery", "username": "bobby"])
        #expect(taken.code == -32005)
        #expect(taken.data["fields"]?["email"] == "Email is already taken")
        let takenName = try await connection.refusal(
            "auth.signup", ["email": "bob2@example.com", "password": "correct horse battery", "username": "BOB"])
        #expect(takenName.data["fields"]?["username"] == "Username is already taken")
        // Without a username one is derived from the address and made unique.
        let derived = try await connection.call(
            API.Auth.signup, .init(email: "bob@elsewhere.org", password: "correct horse battery"))
        #expect(derived.user.username == "bob1")
    }

    @Test func wrongShapeCredentialsAndUnknownProvidersNameTheField() async throws {
        let daemon = try await InProcessDaemon()
        let connection = daemon.connect()
        let wrongType = try await connection.refusal(
            "auth.login", ["provider": "password", "credentials": ["email": 5, "password": "x"]])
        #expect(wrongType.code == -32602)
        #expect(wrongType.data["fields"]?["credentials.email"] == "expected string, found number")
        let missing = try await connection.refusal("auth.login", ["provider": "token", "credentials": [:]])
        #expect(missing.data["fields"]?["credentials.token"] == "is required")
        let unknown = try await connection.refusal("auth.login", ["provider": "kerberos", "credentials": [:]])
        #expect(unknown.code == -32602)
        #expect(unknown.data["fields"]?["provider"] == "must be one of: password, token, peer")
    }

    @Test func unknownEmailAndWrongPasswordGetTheSameAnswer() async throws {
        let daemon = try await InProcessDaemon()
        _ = try await daemon.signUp("carol")
        let connection = daemon.connect()
        let wrong = try await connection.refusal(API.Auth.login, Self.passwordLogin("carol@example.com", "nope nope"))
        let unknown = try await connection.refusal(API.Auth.login, Self.passwordLogin("dave@example.com", "nope nope"))
        #expect(wrong == unknown)
        #expect(wrong.message == "Invalid email or password")
    }

    @Test func personalTokensLogInUntilRevokedAndLoggingOutKeepsThem() async throws {
        let daemon = try await InProcessDaemon()
        let frank = try await daemon.signUp("frank")
        let created = try await frank.call(
            API.Tokens.create, .init(name: "backup script", expiresInDays: 7, password: InProcessDaemon.password))
        let script = daemon.connect()
        _ = try await script.call(API.Auth.login, Self.tokenLogin(created.token))
        // Logging out of a personal-token login ends the connection's login, not the token.
        _ = try await script.call(API.Auth.logout)
        let again = daemon.connect()
        _ = try await again.call(API.Auth.login, Self.tokenLogin(created.token))
        #expect(try await again.call(API.Tokens.revoke, .init(id: created.id)).revoked)
        // The connection's own login rested on the token it revoked: it ends at once, as everywhere else.
        #expect(try await again.refusal(API.Auth.whoami).code == -32001)
        #expect(try await daemon.connect().refusal(API.Auth.login, Self.tokenLogin(created.token)).code == -32002)
    }

    @Test func changingThePasswordRevokesOtherSessionsButNotTheCallers() async throws {
        let daemon = try await InProcessDaemon()
        let gina = daemon.connect()
        let first = try await gina.call(
            API.Auth.signup, .init(email: "gina@example.com", password: InProcessDaemon.password)
        ).session.token
        let second = try await daemon.connect().call(API.Auth.login, Self.passwordLogin("gina@example.com"))
        let changer = daemon.connect()
        _ = try await changer.call(API.Auth.login, Self.tokenLogin(first))
        _ = try await changer.call(
            API.Auth.changePassword, .init(currentPassword: InProcessDaemon.password, newPassword: "new password 1"))
        let other = try await daemon.connect().refusal(API.Auth.login, Self.tokenLogin(second.session.token))
        #expect(other.code == -32002)
        _ = try await daemon.connect().call(API.Auth.login, Self.tokenLogin(first))
        _ = try await daemon.connect().call(API.Auth.login, Self.passwordLogin("gina@example.com", "new password 1"))
    }

    @Test func aDisabledProviderIsNotOffered() async throws {
        let daemon = try await InProcessDaemon { $0.auth.providers = ["password"] }
        let connection = daemon.connect()
        #expect(try await connection.call(API.Auth.providers).map(\.name) == ["password"])
        let error = try await connection.refusal(API.Auth.login, .init(provider: "peer", credentials: [:]))
        #expect(error.data["fields"]?["provider"] == "must be one of: password")
    }

    @Test func signupGoesThroughTheEnabledProviderThatCreatesAccounts() async throws {
        let daemon = try await InProcessDaemon { $0.auth.providers = ["token", "peer"] }
        let refused = try await daemon.connect().refusal(
            API.Auth.signup, .init(email: "mallory@example.com", password: InProcessDaemon.password))
        #expect(refused.code == -32003)
        #expect(refused.message == "Signing up is not enabled on this daemon")
    }
}
