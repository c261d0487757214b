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
