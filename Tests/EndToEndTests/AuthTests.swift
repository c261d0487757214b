import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// Signup, the three login providers and sessions over the real socket: a session resumed on another connection,
/// the kernel's word on the uid, the throttle across a restart, and a configuration that stops start-up. The
/// methods' rules are tested in process (`AuthRouteTests`, `PeerLinkRouteTests`, `TokenRouteTests`).
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

    @Test func aReadOnlyOAuthTokenThatWritesIsRefusedAndItsRevocationEndsItsLogin() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let (app, token) = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.signUp(email: "olga@example.com", username: "olga")
            let app = try await connection.call(
                "oauth.apps.register",
                ["name": "reader", "redirectUris": ["urn:ietf:wg:oauth:2.0:oob"], "scopes": "read write"])
            let granted = try await connection.call(
                "oauth.token",
                [
                    "grantType": "password", "clientId": app["clientId"] ?? .null,
                    "clientSecret": app["clientSecret"] ?? .null, "username": "olga@example.com",
                    "password": "correct horse battery", "scope": "read",
                ])
            #expect(granted["scope"] == "read")
            guard case .string(let token)? = granted["accessToken"] else { throw ClientError.invalidResponse("token") }
            return (app, token)
        }
        let reader = try RawSocket(path: daemon.socketPath)
        reader.send(
            #"{"jsonrpc":"2.0","method":"auth.login","params":{"provider":"token","credentials":{"token":"\#(token)"}},"id":1}"#
                + "\n"
                + #"{"jsonrpc":"2.0","method":"timeline.subscribe","params":{"timeline":"home"},"id":2}"# + "\n"
                + #"{"jsonrpc":"2.0","method":"tweets.post","params":{"text":"read only"},"id":3}"# + "\n")
        let lines = try (0..<3).map { _ in try JSONParser().parse(try #require(reader.readLine())) }
        #expect(lines[0]["result"]?["user"]?["username"] == "olga")
        #expect(lines[1]["result"] != nil)
        #expect(lines[2]["error"]?["code"] == -32003)
        #expect(lines[2]["error"]?["message"] == "This action is outside the authorized scopes")
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            let revoked = try await connection.call(
                "oauth.revoke",
                [
                    "clientId": app["clientId"] ?? .null, "clientSecret": app["clientSecret"] ?? .null,
                    "token": .string(token),
                ])
            #expect(revoked["revoked"] == true)
        }
        // The listening login is told, and is logged out.
        let told = try JSONParser().parse(try #require(reader.readLine()))
        #expect(told["method"] == "auth.revoked" && told["params"]?["reason"] == "tokenRevoked")
        reader.send(#"{"jsonrpc":"2.0","method":"auth.whoami","id":4}"# + "\n")
        let after = try JSONParser().parse(try #require(reader.readLine()))
        #expect(after["error"]?["code"] == -32001)
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
}
