import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterAPI
import TwitterClient

/// The trust model tried as an attacker on the same machine would: names that change hands, a stolen session, a
/// second local user (uid 65534, through `ForeignPeer`) guessing passwords or linking its uid.
struct TrustTests {
    static let password = "correct horse battery"

    static func login(_ email: String, _ password: String = TrustTests.password) -> JSONValue {
        ["provider": "password", "credentials": ["email": .string(email), "password": .string(password)]]
    }

    /// A daemon another local user can reach, with admins by the kernel's word for this process's group.
    static func reachableDaemon() async throws -> DaemonProcess {
        try await DaemonProcess(
            socketDirectory: try TemporaryDirectory.make(),
            configuration: ForeignPeer.reachableConfiguration + DaemonProcess.fastHashing
                + DaemonProcess.adminGroupConfiguration)
    }

    /// `[admin] users` once made whoever held the name an admin: after boss renamed, the next `boss` was one.
    @Test func aNameMakesNoAdminAndAGrantedRoleFollowsTheAccountNotTheName() async throws {
        let daemon = try await DaemonProcess(
            configuration: DaemonProcess.fastHashing + DaemonProcess.adminGroupConfiguration
                + "users = [\"boss\", \"ghost\"]\n")
        #expect(daemon.log.contains("[admin] users is retired and grants nothing"))
        try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (boss) async throws in
            try await boss.signUp(email: "boss@example.com", password: Self.password, username: "boss")
            #expect(try await boss.call(API.Auth.whoami).role == .user, "the configured name grants nothing")
        }
        try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (ghost) async throws in
            try await ghost.signUp(email: "ghost@example.com", password: Self.password, username: "ghost")
            #expect(try await ghost.call(API.Auth.whoami).role == .user, "a configured name never registered")
            #expect(try await ghost.callError("admin.roles.grant", ["username": "ghost"])?.code == -32003)
        }
        try await daemon.grantAdmin(email: "boss@example.com", username: "boss")
        try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (boss) async throws in
            _ = try await boss.call("auth.login", Self.login("boss@example.com"))
            #expect(try await boss.call(API.Auth.whoami).role == .admin)
            _ = try await boss.call("profile.update", ["username": "boss2"])
        }
        try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (newcomer) async throws in
            try await newcomer.signUp(email: "mallory@example.com", password: Self.password, username: "boss")
            #expect(try await newcomer.call(API.Auth.whoami).role == .user, "the old name carries nothing")
            #expect(try await newcomer.callError("admin.users.list", [:])?.code == -32003)
            #expect(try await newcomer.callError("admin.users.resetPassword", ["username": "boss2"])?.code == -32003)
        }
        try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (boss) async throws in
            _ = try await boss.call("auth.login", Self.login("boss@example.com"))
            #expect(try await boss.call(API.Auth.whoami).role == .admin, "the role followed the rename")
            let users = try await boss.call(API.Admin.usersList, .init()).users
            #expect(users.first { $0.username == "boss2" }?.role == .admin)
            #expect(users.first { $0.username == "boss" }?.role == .user)
            let audit = try await boss.call(API.Admin.auditList, .init()).entries
            #expect(audit.contains { $0.action == "admin.roles.grant" && $0.target == "boss" })
            #expect(try await boss.callError("admin.roles.revoke", ["username": "boss2"])?.code == -32602)
            let revoked = try await boss.call(API.Admin.revokeRole, .init(username: "ghost"))
            #expect(!revoked.changed)
        }
    }

    /// A stolen session once linked the thief's uid for good; now a link takes the password, the owner sees every
    /// link and removes any, and a password change ends them all.
    @Test(.enabled(if: ForeignPeer.isPossible, "acting as uid 65534 needs root"))
    func aStolenSessionCannotLinkAUidAndTheOwnerSeesAndEndsEveryLink() async throws {
        let daemon = try await Self.reachableDaemon()
        let session = try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) {
            (victim) async throws in
            try await victim.signUp(email: "victim@example.com", password: Self.password, username: "victim")
        }
        let thief = try ForeignPeer(socketPath: daemon.ownSocketPath)
        #expect(
            try thief.errorCode("auth.login", ["provider": "token", "credentials": ["token": .string(session)]]) == nil)
        #expect(try thief.errorCode("auth.linkPeer") == -32002, "a session alone links nothing")
        #expect(try thief.errorCode("auth.linkPeer", ["password": "a guess"]) == -32002)
        let outsider = try ForeignPeer(socketPath: daemon.ownSocketPath)
        #expect(try outsider.errorCode("auth.login", ["provider": "peer", "credentials": [:]]) == -32002)

        // With the password (say it was shared once), the uid is linked, and the owner sees it and takes it away.
        #expect(try thief.errorCode("auth.linkPeer", ["password": .string(Self.password)]) == nil)
        try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (victim) async throws in
            _ = try await victim.call("auth.login", Self.login("victim@example.com"))
            _ = try await victim.call(API.Auth.linkPeer, .init(password: Self.password))
            let links = try await victim.call(API.Auth.peerLinks).links
            #expect(links.map(\.uid) == [0, ForeignPeer.uid].sorted())
            #expect(links.allSatisfy { $0.linkedAt != nil })
            #expect(try await victim.call(API.Auth.unlinkPeer, .init(uid: ForeignPeer.uid)).unlinked)
            #expect(try await victim.call(API.Auth.peerLinks).links.map(\.uid) == [0])
        }
        let again = try ForeignPeer(socketPath: daemon.ownSocketPath)
        #expect(try again.errorCode("auth.login", ["provider": "peer", "credentials": [:]]) == -32002)

        // A password change ends every link, the caller's own uid's too.
        #expect(try again.errorCode("auth.login", Self.login("victim@example.com")) == nil)
        #expect(try again.errorCode("auth.linkPeer", ["password": .string(Self.password)]) == nil)
        try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (victim) async throws in
            _ = try await victim.call("auth.login", Self.login("victim@example.com"))
            _ = try await victim.call(
                "auth.changePassword", ["currentPassword": .string(Self.password), "newPassword": "a new password 1"])
            #expect(try await victim.call(API.Auth.peerLinks).links.isEmpty)
        }
        let afterChange = try ForeignPeer(socketPath: daemon.ownSocketPath)
        #expect(try afterChange.errorCode("auth.login", ["provider": "peer", "credentials": [:]]) == -32002)
    }

    /// A thief's session once minted a personal token that outlived the victim's reset. Minting now takes the
    /// password, a personal token mints nothing, and a reset takes back every session, token and link.
    @Test func mintingATokenTakesThePasswordAndAResetTakesBackEverything() async throws {
        let daemon = try await DaemonProcess(
            configuration: DaemonProcess.fastHashing + DaemonProcess.adminGroupConfiguration)
        for name in ["boss", "victim"] {
            _ = try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (connection) async throws in
                try await connection.signUp(email: "\(name)@example.com", password: Self.password, username: name)
            }
        }
        try await daemon.grantAdmin(email: "boss@example.com", username: "boss")
        let session = try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) {
            (victim) async throws in
            try await victim.signUp(email: "victim2@example.com", password: Self.password, username: "victim2")
        }
        // The thief holds the session: minting needs the password it does not have.
        let minted = try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (thief) async throws in
            try await thief.logIn(token: session)
            #expect(try await thief.callError("tokens.create", ["name": "backdoor"])?.code == -32002)
            #expect(
                try await thief.callError("tokens.create", ["name": "backdoor", "password": "guess"])?.code == -32002)
            // Say the thief had the password once, and minted a token and linked a uid with it.
            let created = try await thief.call(
                API.Tokens.create, .init(name: "backdoor", password: Self.password))
            _ = try await thief.call(API.Auth.linkPeer, .init(password: Self.password))
            return created.token
        }
        try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (script) async throws in
            try await script.logIn(token: minted)
            let refused = try await script.callError(
                "tokens.create", ["name": "another", "password": .string(Self.password)])
            #expect(refused?.code == -32003, "a personal token never mints another")
        }
        // The victim gets a reset code from the admin and sets a new password: everything the thief held ends.
        let code = try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (boss) async throws in
            _ = try await boss.call("auth.login", Self.login("boss@example.com"))
            return try await boss.call(API.Admin.resetPassword, .init(username: "victim2")).code
        }
        try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (victim) async throws in
            _ = try await victim.call(
                "auth.resetPassword",
                ["email": "victim2@example.com", "code": .string(code), "newPassword": "a brand new password"])
        }
        try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (thief) async throws in
            #expect(
                try await thief.callError(
                    "auth.login", ["provider": "token", "credentials": ["token": .string(minted)]])?.code == -32002)
            #expect(
                try await thief.callError(
                    "auth.login", ["provider": "token", "credentials": ["token": .string(session)]])?.code == -32002)
            #expect(try await thief.callError("auth.login", ["provider": "peer", "credentials": [:]])?.code == -32002)
        }
    }

    /// Every password check outside login once had no throttle: twelve guesses, twelve -32002, from a
    /// connection holding only a token. Each now counts as a failed login does.
    @Test(arguments: ["auth.changePassword", "account.delete", "profile.update"])
    func passwordGuessesOutsideLoginAreThrottled(_ method: String) async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let session = try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (owner) async throws in
            try await owner.signUp(email: "owner@example.com", password: Self.password, username: "owner")
        }
        try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (thief) async throws in
            try await thief.logIn(token: session)
            func params(_ wrong: JSONValue) -> JSONValue {
                switch method {
                case "auth.changePassword": ["currentPassword": wrong, "newPassword": "whatever it is 1"]
                case "account.delete": ["password": wrong]
                default: ["email": "thief@example.com", "currentPassword": wrong]
                }
            }
            var errors: [RPCError] = []
            for guess in 0..<12 {
                if let error = try await thief.callError(method, params(.string("guess number \(guess)"))) {
                    errors.append(error)
                }
            }
            let codes = errors.map(\.code)
            #expect(codes.count == 12)
            #expect(codes.prefix(5).allSatisfy { $0 == -32002 }, "\(codes)")
            #expect(codes.dropFirst(5).allSatisfy { $0 == -32006 }, "\(codes)")
            #expect(errors.last?.data["retryAfter"] != nil)
            // Even the right password waits its turn: the throttle decides before the password is looked at.
            #expect(try await thief.callError(method, params(.string(Self.password)))?.code == -32006)
        }
    }

    /// Ten wrong logins for the victim's e-mail from another local user once locked the victim out on its own
    /// uid. Guesses count against their source; the owner's uid logs in.
    @Test(.enabled(if: ForeignPeer.isPossible, "acting as uid 65534 needs root"))
    func anotherUsersGuessesDoNotLockTheOwnerOut() async throws {
        let daemon = try await Self.reachableDaemon()
        _ = try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (owner) async throws in
            try await owner.signUp(email: "victim@example.com", password: Self.password, username: "victim")
        }
        let guesser = try ForeignPeer(socketPath: daemon.ownSocketPath)
        var codes: [Int?] = []
        for guess in 0..<10 {
            codes.append(try guesser.errorCode("auth.login", Self.login("victim@example.com", "guess \(guess)")))
        }
        #expect(codes.prefix(5).allSatisfy { $0 == -32002 }, "\(codes)")
        #expect(codes.last == -32006, "the guesser waits: \(codes)")
        try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (owner) async throws in
            let answer = try await owner.call("auth.login", Self.login("victim@example.com"))
            #expect(answer["user"]?["username"] == "victim")
        }
    }

    /// A connection once kept the name it logged in with: after a rename someone else took the old name, and
    /// `profile.get` of it answered the newcomer's private profile. A connection knows its account by id.
    @Test func aRenameElsewhereGivesThisConnectionNobodyElsesProfile() async throws {
        let daemon = try await DaemonProcess(
            configuration: DaemonProcess.fastHashing + DaemonProcess.adminGroupConfiguration)
        _ = try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (first) async throws in
            try await first.signUp(email: "m@example.com", password: Self.password, username: "mike")
        }
        try await daemon.grantAdmin(email: "m@example.com", username: "mike")
        try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (first) async throws in
            _ = try await first.call("auth.login", Self.login("m@example.com"))
            try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (second) async throws in
                _ = try await second.call("auth.login", Self.login("m@example.com"))
                _ = try await second.call("profile.update", ["username": "michael"])
            }
            try await RPCConnection.withConnection(socketPath: daemon.ownSocketPath) { (newcomer) async throws in
                try await newcomer.signUp(email: "newcomer@example.com", password: Self.password, username: "mike")
                _ = try await newcomer.call("profile.update", ["age": 33])
            }
            let other = try await first.call("profile.get", ["username": "mike"])
            #expect(other["email"] == nil, "the newcomer's e-mail stays private: \(other)")
            #expect(other["age"] == nil)
            let own = try await first.call("profile.get", ["username": "michael"])
            #expect(own["email"] == "m@example.com")
            _ = try await first.call("admin.users.suspend", ["username": "mike", "reason": "impersonation"])
            let audit = try await first.call(API.Admin.auditList, .init()).entries
            #expect(audit.first?.actor == "michael", "the audit log names the admin as it is named now")
        }
    }

    /// Unlinking a uid cut off only the connections whose provider was `peer`: uid 65534, linked by alice, logged in
    /// with its peer login, resumed that session with a token login on another connection (as twctl does on every
    /// run) and kept receiving her direct messages there after she unlinked it. Every session the link minted ends
    /// now, and so does every live connection resting on one, whatever provider resumed it, on every daemon (with
    /// the pair, the connections alternate between two daemons).
    @Test(.enabled(if: ForeignPeer.isPossible, "acting as uid 65534 needs root"))
    func unlinkingAUidEndsTheConnectionsThatResumedItsSessions() async throws {
        let daemon = try await Self.reachableDaemon()
        _ = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { (alice) async throws in
            try await alice.signUp(email: "alice@example.com", password: Self.password, username: "alice")
        }
        _ = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { (bob) async throws in
            try await bob.signUp(email: "bob@example.com", password: Self.password, username: "bob")
            // Bob takes messages from the people he follows.
            _ = try await bob.call("users.follow", ["username": "alice"])
        }
        // Uid 65534 is linked with alice's password (shared once), then logs in as twctl does: one peer login, whose
        // session later runs resume with a token login.
        let linker = try ForeignPeer(socketPath: daemon.socketPath)
        #expect(try linker.errorCode("auth.login", Self.login("alice@example.com")) == nil)
        #expect(try linker.errorCode("auth.linkPeer", ["password": .string(Self.password)]) == nil)
        let peerLogin = try ForeignPeer(socketPath: daemon.socketPath)
        let minted = try peerLogin.call("auth.login", ["provider": "peer", "credentials": [:]])
        let token = try #require(minted["result"]?["session"]?["token"])
        let resumed = try ForeignPeer(socketPath: daemon.socketPath)
        #expect(try resumed.errorCode("auth.login", ["provider": "token", "credentials": ["token": token]]) == nil)
        #expect(try resumed.errorCode("messages.subscribe") == nil)
        func aliceSends(_ text: String) async throws {
            try await RPCConnection.withConnection(socketPath: daemon.socketPath) { (alice) async throws in
                _ = try await alice.logIn(email: "alice@example.com", password: Self.password)
                _ = try await alice.call("messages.send", ["to": ["bob"], "text": .string(text)])
            }
        }
        try await aliceSends("before")
        let before = try JSONParser().parse(try #require(resumed.readLine()))
        #expect(before["method"] == "messages.new", "the resumed connection is subscribed to her messages")
        #expect(before["params"]?["message"]?["text"] == "before")

        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { (alice) async throws in
            _ = try await alice.logIn(email: "alice@example.com", password: Self.password)
            #expect(try await alice.call(API.Auth.unlinkPeer, .init(uid: ForeignPeer.uid)).unlinked)
        }
        // Told at once, on the connection that resumed the session with a token as on the peer login's.
        for connection in [resumed, peerLogin] {
            let notice = try JSONParser().parse(try #require(connection.readLine()))
            #expect(notice["method"] == "auth.revoked")
            #expect(notice["params"]?["reason"] == "peerUnlinked")
        }
        // Nothing more: a message sent after the answer does not reach it, and its next request is refused.
        try await aliceSends("after")
        resumed.send(#"{"jsonrpc":"2.0","method":"auth.whoami","id":99}"#)
        let next = try JSONParser().parse(try #require(resumed.readLine()))
        #expect(next["method"] == nil, "no message after the revocation")
        #expect(next["error"]?["code"] == -32001)
        // And the session itself is over: the token logs nobody in.
        let later = try ForeignPeer(socketPath: daemon.socketPath)
        #expect(try later.errorCode("auth.login", ["provider": "token", "credentials": ["token": token]]) == -32002)
    }
}

/// The same from twctl: a link asks for the password and is listed and removed by uid; the root admin grants and
/// revokes the stored role.
struct TwctlTrustTests {
    @Test func peerLinksAndRolesFromTwctl() async throws {
        let daemon = try await DaemonProcess(
            configuration: DaemonProcess.fastHashing + DaemonProcess.adminGroupConfiguration)
        let operatorUser = try TwctlSocialTests.Person("op", on: daemon)
        let bob = try TwctlSocialTests.Person("bob", on: daemon)
        let wrong = try operatorUser.run(["peer", "link", "--password-stdin"], input: "not the password")
        #expect(wrong.status == 77, "\(wrong)")
        let linked = try operatorUser.run(["peer", "link", "--password-stdin"], input: TrustTests.password)
        #expect(linked.status == 0 && linked.output.contains("uid \(geteuid()) now logs in as @op"), "\(linked)")
        #expect(try operatorUser.run(["peer", "list"]).output.contains("uid \(geteuid())  linked 20"))
        #expect(try operatorUser.run(["login", "--peer"]).status == 0)
        #expect(try operatorUser.json(["whoami"])["role"] == "admin")

        let refused = try bob.run(["admin", "grant", "bob"])
        #expect(refused.status == 77 && refused.error.contains("Only admins may call admin.roles.grant"))
        let granted = try operatorUser.run(["admin", "grant", "bob"])
        #expect(granted.status == 0 && granted.output.contains("@bob is an admin now."), "\(granted)")
        #expect(try bob.json(["whoami"])["role"] == "admin", "bob's next run logs in with the role")
        #expect(try operatorUser.run(["admin", "revoke", "bob"]).output.contains("@bob is no longer an admin."))
        #expect(try bob.json(["whoami"])["role"] == "user")

        let unlinked = try operatorUser.run(["peer", "unlink", "--uid", "\(geteuid())"])
        #expect(unlinked.status == 0 && unlinked.output.contains("Unlinked."), "\(unlinked)")
        #expect(try bob.run(["peer", "list"]).output.contains("No uid is linked."))
    }
}
