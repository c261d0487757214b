import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// Every revocation reaches the connections already logged in with what it revoked, at once: each gets one
/// `auth.revoked` notification before anything else, its subscriptions end, and its next request is -32001.
@Suite(.serialized) struct RevocationTests {
    /// A second connection, logged in with `credentials` and subscribed to the public stream, read line by line.
    static func subscribedVictim(_ daemon: DaemonProcess, credentials: String) throws -> RawSocket {
        let socket = try RawSocket(path: daemon.socketPath)
        socket.send(#"{"jsonrpc":"2.0","method":"auth.login","params":\#(credentials),"id":1}"# + "\n")
        let login = try JSONParser().parse(try #require(socket.readLine()))
        #expect(login["result"]?["user"] != nil, "\(login)")
        socket.send(#"{"jsonrpc":"2.0","method":"tweets.subscribe","id":2}"# + "\n")
        let subscribed = try JSONParser().parse(try #require(socket.readLine()))
        #expect(subscribed["result"]?["subscription"] != nil, "\(subscribed)")
        return socket
    }

    static func tokenCredentials(_ token: String) -> String {
        #"{"provider":"token","credentials":{"token":"\#(token)"}}"#
    }

    /// The victim's next line is `auth.revoked` with `reason`; a post by someone else then reaches it no more,
    /// and its next request is -32001 naming the reason.
    static func expectCutOff(_ victim: RawSocket, reason: String, daemon: DaemonProcess) async throws {
        let notice = try JSONParser().parse(try #require(victim.readLine()))
        #expect(notice["method"] == "auth.revoked")
        #expect(notice["params"]?["reason"] == .string(reason))
        #expect(notice["id"] == nil)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { stranger in
            try await stranger.signUp(email: "stranger-\(UInt32.random(in: 0...UInt32.max))@example.com")
            _ = try await stranger.call("tweets.post", ["text": "after the revocation"])
        }
        victim.send(#"{"jsonrpc":"2.0","method":"auth.whoami","id":3}"# + "\n")
        let answer = try JSONParser().parse(try #require(victim.readLine()))
        #expect(answer["id"] == 3, "no tweets.new may come after auth.revoked: \(answer)")
        #expect(answer["error"]?["code"] == -32001)
        #expect(answer["error"]?["data"]?["reason"] == .string(reason))
    }

    @Test func logoutEndsTheSameSessionOnAnotherLiveConnection() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            let token = try await alice.signUp(email: "alice@example.com", username: "alice")
            let victim = try Self.subscribedVictim(daemon, credentials: Self.tokenCredentials(token))
            #expect(try await alice.call("auth.logout")["loggedOut"] == true)
            try await Self.expectCutOff(victim, reason: "loggedOut", daemon: daemon)
        }
    }

    @Test func revokingAPersonalTokenEndsTheConnectionsLoggedInWithIt() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
            let created = try await alice.call(
                "tokens.create", ["name": "script", "password": "correct horse battery"])
            guard case .string(let token)? = created["token"], case .number(let id)? = created["id"] else {
                throw ClientError.invalidResponse("\(created)")
            }
            let victim = try Self.subscribedVictim(daemon, credentials: Self.tokenCredentials(token))
            // Another login of the same account, by password, rests on another token and stays.
            try await RPCConnection.withConnection(socketPath: daemon.socketPath) { bystander in
                try await bystander.logIn(email: "alice@example.com")
                #expect(try await alice.call("tokens.revoke", ["id": .number(id)])["revoked"] == true)
                try await Self.expectCutOff(victim, reason: "tokenRevoked", daemon: daemon)
                #expect(try await bystander.call("auth.whoami")["user"]?["username"] == "alice")
            }
            #expect(try await alice.call("auth.whoami")["user"]?["username"] == "alice")
        }
    }

    @Test func aPasswordChangeEndsEveryOtherSessionButKeepsTheCallers() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
            let victim = try Self.subscribedVictim(
                daemon,
                credentials:
                    #"{"provider":"password","credentials":{"email":"alice@example.com","password":"correct horse battery"}}"#
            )
            _ = try await alice.call(
                "auth.changePassword", ["currentPassword": "correct horse battery", "newPassword": "new password 1"])
            try await Self.expectCutOff(victim, reason: "passwordChanged", daemon: daemon)
            #expect(try await alice.call("auth.whoami")["user"]?["username"] == "alice")
        }
    }

    @Test func unlinkingThePeerEndsItsPeerLoginsAndTheirSessions() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
            _ = try await alice.call("auth.linkPeer", ["password": "correct horse battery"])
            let victim = try RawSocket(path: daemon.socketPath)
            victim.send(
                #"{"jsonrpc":"2.0","method":"auth.login","params":{"provider":"peer","credentials":{}},"id":1}"# + "\n")
            let login = try JSONParser().parse(try #require(victim.readLine()))
            guard case .string(let peerSession)? = login["result"]?["session"]?["token"] else {
                throw ClientError.invalidResponse("\(login)")
            }
            victim.send(#"{"jsonrpc":"2.0","method":"tweets.subscribe","id":2}"# + "\n")
            #expect(victim.readLine()?.contains("subscription") == true)
            #expect(try await alice.call("auth.unlinkPeer")["unlinked"] == true)
            try await Self.expectCutOff(victim, reason: "peerUnlinked", daemon: daemon)
            // The session the peer login was given ends with it; alice's own password login stays.
            #expect(try await alice.call("auth.whoami")["provider"] == "password")
            try await RPCConnection.withConnection(socketPath: daemon.socketPath) { other in
                let refused = try await other.callError(
                    "auth.login", ["provider": "token", "credentials": ["token": .string(peerSession)]])
                #expect(refused?.code == -32002)
            }
        }
    }

    @Test func unlinkingThePeerEndsTheSessionsOfPeerLoginsWhoseConnectionsClosed() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
            _ = try await alice.call("auth.linkPeer", ["password": "correct horse battery"])
            // A peer login on a connection that is closed again before the unlink: no live connection to cut.
            let peerSession = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { peer in
                let login = try await peer.call("auth.login", ["provider": "peer", "credentials": [:]])
                guard case .string(let token)? = login["session"]?["token"] else {
                    throw ClientError.invalidResponse("\(login)")
                }
                return token
            }
            #expect(try await alice.call("auth.unlinkPeer")["unlinked"] == true)
            try await RPCConnection.withConnection(socketPath: daemon.socketPath) { other in
                let refused = try await other.callError(
                    "auth.login", ["provider": "token", "credentials": ["token": .string(peerSession)]])
                #expect(refused?.code == -32002)
            }
            #expect(try await alice.call("auth.whoami")["provider"] == "password")
        }
    }
}
