import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// Signup, the three login providers, sessions and tokens, over the real socket.
@Suite(.serialized) struct AuthTests {
    @Test func signupLogsInAndTheSessionResumesOnAnotherConnectionUntilLogout() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let token = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            let token = try await connection.signUp(email: "alice@example.com", username: "alice")
            #expect(token.hasPrefix("tws_"))
            let whoami = try await connection.call("auth.whoami")
            #expect(whoami["user"]?["username"] == "alice")
            #expect(whoami["provider"] == "password")
            return token
        }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            #expect(try await connection.callError("auth.whoami")?.code == -32001)
            let resumed = try await connection.logIn(token: token)
            #expect(resumed["user"]?["email"] == "alice@example.com")
            #expect(resumed["session"]?["token"] == .string(token))
            #expect(try await connection.call("auth.logout")["loggedOut"] == true)
            #expect(try await connection.callError("auth.whoami")?.code == -32001)
        }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            let error = try await connection.callError(
                "auth.login", ["provider": "token", "credentials": ["token": .string(token)]]
            )
            #expect(error?.code == -32002)
            let login = try await connection.logIn(email: "ALICE@example.com")
            #expect(login["user"]?["username"] == "alice")
        }
    }

    @Test func everyMethodButTheOpenOnesNeedsALogin() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            guard case .array(let methods)? = try await connection.call("rpc.discover")["methods"] else {
                Issue.record("no methods")
                return
            }
            let open: Set<String> = [
                "auth.signup", "auth.login", "auth.providers", "auth.resetPassword", "rpc.discover", "system.ping",
                "system.version",
                "system.health",
            ]
            for method in methods {
                guard case .string(let name)? = method["name"] else { continue }
                #expect((method["x-authentication"] == "none") == open.contains(name), "\(name)")
                if !open.contains(name) {
                    #expect(try await connection.callError(name, [:])?.code == -32001, "\(name)")
                }
            }
        }
    }

    @Test func signupReportsEveryBadFieldAtOnceAndTakenFieldsByName() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            let invalid = try await connection.callError(
                "auth.signup", ["email": "not-an-address", "password": "short", "username": "has space"]
            )
            #expect(invalid?.code == -32602)
            #expect(invalid?.data["fields"]?["email"] == "Email is not a valid address")
            #expect(invalid?.data["fields"]?["password"] == "Password must be at least 8 characters")
            #expect(invalid?.data["fields"]?["username"] == "Username must be 1 to 15 letters, digits or underscores")
            try await connection.signUp(email: "bob@example.com", username: "bob")
            let taken = try await connection.callError(
                "auth.signup", ["email": "BOB@example.com", "password": "correct horse battery", "username": "bobby"]
            )
            #expect(taken?.code == -32005)
            #expect(taken?.data["fields"]?["email"] == "Email is already taken")
            let takenName = try await connection.callError(
                "auth.signup", ["email": "bob2@example.com", "password": "correct horse battery", "username": "BOB"]
            )
            #expect(takenName?.data["fields"]?["username"] == "Username is already taken")
            // Without a username one is derived from the address and made unique.
            let derived = try await connection.call(
                "auth.signup", ["email": "bob@elsewhere.org", "password": "correct horse battery"]
            )
            #expect(derived["user"]?["username"] == "bob1")
        }
    }

    @Test func wrongShapeCredentialsAndUnknownProvidersNameTheField() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            let wrongType = try await connection.callError(
                "auth.login", ["provider": "password", "credentials": ["email": 5, "password": "x"]]
            )
            #expect(wrongType?.code == -32602)
            #expect(wrongType?.data["fields"]?["credentials.email"] == "expected string, found number")
            let missing = try await connection.callError(
                "auth.login", ["provider": "token", "credentials": [:]]
            )
            #expect(missing?.data["fields"]?["credentials.token"] == "is required")
            let unknown = try await connection.callError("auth.login", ["provider": "kerberos", "credentials": [:]])
            #expect(unknown?.code == -32602)
            #expect(unknown?.data["fields"]?["provider"] == "must be one of: password, token, peer")
        }
    }

    @Test func unknownEmailAndWrongPasswordGetTheSameAnswer() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.signUp(email: "carol@example.com")
            let wrong = try await connection.callError(
                "auth.login",
                ["provider": "password", "credentials": ["email": "carol@example.com", "password": "nope nope"]]
            )
            let unknown = try await connection.callError(
                "auth.login",
                ["provider": "password", "credentials": ["email": "dave@example.com", "password": "nope nope"]]
            )
            #expect(wrong != nil)
            #expect(wrong == unknown)
            #expect(wrong?.message == "Invalid email or password")
        }
    }

    @Test func peerLoginUsesTheKernelsWordOnTheUid() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let peerLogin: JSONValue = ["provider": "peer", "credentials": [:]]
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            #expect(try await connection.callError("auth.login", peerLogin)?.code == -32002)
            try await connection.signUp(email: "erin@example.com", username: "erin")
            let linked = try await connection.call("auth.linkPeer", ["password": "correct horse battery"])
            #expect(linked["uid"] == .number(JSONNumber(Int(geteuid()))))
        }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            let login = try await connection.call("auth.login", peerLogin)
            #expect(login["user"]?["username"] == "erin")
            #expect(try await connection.call("auth.whoami")["provider"] == "peer")
            #expect(try await connection.call("auth.unlinkPeer")["unlinked"] == true)
        }
        // The same literal line a shell script would send through socat.
        let socket = try RawSocket(path: daemon.socketPath)
        socket.send(
            #"{"jsonrpc":"2.0","method":"auth.login","params":{"provider":"peer","credentials":{}},"id":1}"# + "\n")
        let answer = try JSONParser().parse(try #require(socket.readLine()))
        #expect(answer["error"]?["code"] == -32002)
    }

    @Test func personalTokensLogInUntilRevoked() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let (id, token) = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.signUp(email: "frank@example.com")
            let created = try await connection.call(
                "tokens.create", ["name": "backup script", "expiresInDays": 7, "password": "correct horse battery"])
            guard case .string(let token)? = created["token"], case .number(let id)? = created["id"] else {
                throw ClientError.invalidResponse("\(created)")
            }
            #expect(token.hasPrefix("twp_"))
            let listed = try await connection.call("tokens.list")
            #expect(listed[0]?["name"] == "backup script")
            #expect(listed[0]?["token"] == nil)
            return (id, token)
        }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.logIn(token: token)
            // Logging out of a personal-token login ends the connection's login, not the token.
            _ = try await connection.call("auth.logout")
        }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.logIn(token: token)
            #expect(try await connection.call("tokens.revoke", ["id": .number(id)])["revoked"] == true)
            // The connection's own login rested on the token it revoked: it ends at once, as everywhere else.
            #expect(try await connection.callError("auth.whoami")?.code == -32001)
            try await connection.logIn(email: "frank@example.com")
            #expect(try await connection.callError("tokens.revoke", ["id": .number(id)])?.code == -32004)
        }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            let error = try await connection.callError(
                "auth.login", ["provider": "token", "credentials": ["token": .string(token)]]
            )
            #expect(error?.code == -32002)
        }
    }

    @Test func changingThePasswordRevokesOtherSessions() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let (first, second) = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            let first = try await connection.signUp(email: "gina@example.com")
            let second = try await connection.logIn(email: "gina@example.com")
            return (first, second["session"]?["token"])
        }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.logIn(token: first)
            let wrong = try await connection.callError(
                "auth.changePassword", ["currentPassword": "not it at all", "newPassword": "new password 1"]
            )
            #expect(wrong?.code == -32002)
            _ = try await connection.call(
                "auth.changePassword", ["currentPassword": "correct horse battery", "newPassword": "new password 1"]
            )
        }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            guard case .string(let other)? = second else { throw ClientError.invalidResponse("no token") }
            let error = try await connection.callError(
                "auth.login", ["provider": "token", "credentials": ["token": .string(other)]]
            )
            #expect(error?.code == -32002)
            try await connection.logIn(token: first)
            try await connection.logIn(email: "gina@example.com", password: "new password 1")
        }
    }

    @Test func throttleMeetsRepeatedFailuresAndSurvivesARestart() async throws {
        let directory = try TemporaryDirectory.make()
        let badLogin: JSONValue = [
            "provider": "password", "credentials": ["email": "hank@example.com", "password": "wrong guess"],
        ]
        do {
            let daemon = try await DaemonProcess(directory: directory, configuration: DaemonProcess.fastHashing)
            try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
                for _ in 0..<5 { #expect(try await connection.callError("auth.login", badLogin)?.code == -32002) }
                let limited = try await connection.callError("auth.login", badLogin)
                #expect(limited?.code == -32006)
                #expect(limited?.data["retryAfter"] == 1)
            }
            #expect(daemon.stop() == 0)
        }
        let restarted = try await DaemonProcess(directory: directory, configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: restarted.socketPath) { connection in
            let limited = try await connection.callError("auth.login", badLogin)
            // Either still inside the 1 s wait, or the attempt was allowed and failed as the 6th failure.
            #expect(limited?.code == -32006 || limited?.code == -32002)
            let next = try await connection.callError("auth.login", badLogin)
            #expect(next?.code == -32006)
        }
    }

    @Test func unknownProviderInTheConfigurationStopsStartUp() throws {
        let directory = try TemporaryDirectory.make()
        try "[auth]\nproviders = [\"password\", \"kerberos\"]\n".write(
            toFile: directory + "/t.toml", atomically: true, encoding: .utf8)
        let result = try runProduct(
            "twitterd",
            [
                "--config", directory + "/t.toml", "--socket", directory + "/s.sock", "--database",
                directory + "/d.sqlite",
            ]
        )
        #expect(result.status == 78)
        #expect(
            result.error.contains("auth.providers: unknown login provider \"kerberos\"; known: password, token, peer"))
    }

    @Test func disabledProviderIsNotOffered() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing + "providers = [\"password\"]\n")
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            let providers = try await connection.call("auth.providers")
            #expect(providers[0]?["name"] == "password")
            #expect(providers[1] == nil)
            let error = try await connection.callError("auth.login", ["provider": "peer", "credentials": [:]])
            #expect(error?.data["fields"]?["provider"] == "must be one of: password")
        }
    }

    @Test func signupGoesThroughTheEnabledProviderThatCreatesAccounts() async throws {
        let daemon = try await DaemonProcess(
            configuration: DaemonProcess.fastHashing + "providers = [\"token\", \"peer\"]\n")
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            let refused = try await connection.callError(
                "auth.signup", ["email": "mallory@example.com", "password": "correct horse battery"])
            #expect(refused?.code == -32003)
            #expect(refused?.message == "Signing up is not enabled on this daemon")
        }
    }
}
