import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// Two daemons on one PostgreSQL database, each on its own socket, as on two hosts: one service.
@Suite(.serialized) struct SharedDatabaseTests {
    /// The two daemons' own sockets.
    /// A raw connection to `socket`, logged in with `token` (its answer read), for the streams a test listens to.
    static func loggedIn(at socket: String, token: String) throws -> RawSocket {
        let connection = try RawSocket(path: socket)
        connection.send(
            #"{"jsonrpc":"2.0","method":"auth.login","params":{"provider":"token","credentials":{"token":"\#(token)"}},"id":1}"#
                + "\n")
        #expect(try JSONParser().parse(try #require(connection.readLine()))["result"]?["user"] != nil)
        return connection
    }

    static func pair() async throws -> (daemon: DaemonProcess, a: String, b: String) {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing, store: .postgresqlPair)
        let partner = try #require(daemon.partner)
        return (daemon, daemon.ownSocketPath, partner.ownSocketPath)
    }

    @Test func aPostThroughOneDaemonIsLiveAndReadableThroughTheOther() async throws {
        let (daemon, a, b) = try await Self.pair()
        let bobToken = try await RPCConnection.withConnection(socketPath: b) { bob in
            try await bob.signUp(email: "bob@example.com", username: "bob")
        }
        _ = try await RPCConnection.withConnection(socketPath: a) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
        }
        // Bob, on B, follows alice and listens to his home timeline and his notifications there.
        let listener = try Self.loggedIn(at: b, token: bobToken)
        listener.send(#"{"jsonrpc":"2.0","method":"users.follow","params":{"username":"alice"},"id":2}"# + "\n")
        #expect(try JSONParser().parse(try #require(listener.readLine()))["result"]?["following"] == true)
        listener.send(#"{"jsonrpc":"2.0","method":"timeline.subscribe","params":{"timeline":"home"},"id":3}"# + "\n")
        #expect(try JSONParser().parse(try #require(listener.readLine()))["result"]?["subscription"] != nil)
        listener.send(#"{"jsonrpc":"2.0","method":"notifications.subscribe","id":4}"# + "\n")
        #expect(try JSONParser().parse(try #require(listener.readLine()))["result"]?["subscription"] != nil)

        // Alice posts through A; the answer means it is committed.
        let posted = try await RPCConnection.withConnection(socketPath: a) { alice in
            try await alice.logIn(email: "alice@example.com")
            return try await alice.call("tweets.post", ["text": "hello @bob from host A"])
        }
        // Live on B: the tweet on the home stream, the mention as a notification, once each.
        var methods: [String: JSONValue] = [:]
        while methods.count < 2, let line = listener.readLine() {
            let message = try JSONParser().parse(line)
            if case .string(let method)? = message["method"] { methods[method] = message["params"] }
        }
        #expect(methods["tweets.new"]?["tweet"]?["id"] == posted["id"])
        #expect(methods["notifications.new"]?["notification"]?["type"] == "mention")
        // And readable through B, for anyone: B has delivered what it was told, and pages come from its caches.
        try await RPCConnection.withConnection(socketPath: b) { reader in
            try await reader.logIn(token: bobToken)
            let home = try await reader.call("timeline.home")
            #expect(home["tweets"]?[0]?["id"] == posted["id"])
            let user = try await reader.call("timeline.user", ["username": "alice"])
            #expect(user["tweets"]?[0]?["id"] == posted["id"])
        }
        _ = daemon
    }

    @Test func aQuoteThroughOneDaemonShowsItsQuotedTweetAndCountThroughTheOther() async throws {
        let (daemon, a, b) = try await Self.pair()
        let aliceToken = try await RPCConnection.withConnection(socketPath: a) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
        }
        // Alice listens to the public timeline on A: its delivery of the quote is the moment A has applied B's
        // commit (pages through a daemon show another daemon's writes once it has been told of them).
        let listener = try Self.loggedIn(at: a, token: aliceToken)
        listener.send(#"{"jsonrpc":"2.0","method":"timeline.subscribe","params":{"timeline":"public"},"id":2}"# + "\n")
        #expect(try JSONParser().parse(try #require(listener.readLine()))["result"]?["subscription"] != nil)
        let original = try await RPCConnection.withConnection(socketPath: a) { alice in
            try await alice.logIn(token: aliceToken)
            // Read once first, so A's read model holds alice's timeline before the quote arrives from B.
            _ = try await alice.call("timeline.public")
            return try await alice.call("tweets.post", ["text": "quote me"])
        }
        let quote = try await RPCConnection.withConnection(socketPath: b) { bob in
            try await bob.signUp(email: "bob@example.com", username: "bob")
            return try await bob.call("tweets.post", ["text": "so true", "quoteOf": original["id"] ?? .null])
        }
        var delivered: JSONValue?
        while delivered?["id"] != quote["id"], let line = listener.readLine() {
            let message = try JSONParser().parse(line)
            if message["method"] == "tweets.new" { delivered = message["params"]?["tweet"] }
        }
        #expect(delivered?["id"] == quote["id"], "A streamed the quote B committed")
        try await RPCConnection.withConnection(socketPath: a) { alice in
            try await alice.logIn(token: aliceToken)
            let everyone = try await alice.call("timeline.public")
            #expect(everyone["tweets"]?[0]?["id"] == quote["id"])
            #expect(everyone["tweets"]?[0]?["quoted"]?["text"] == "quote me")
            #expect(everyone["tweets"]?[1]?["quotesCount"] == 1, "the count B committed, on A")
            let quotes = try await alice.call("tweets.quotes", ["id": original["id"] ?? .null])
            #expect(quotes["tweets"]?[0]?["id"] == quote["id"])
        }
        _ = daemon
    }

    @Test func aLogoutThroughOneDaemonCutsTheSessionOffOnTheOther() async throws {
        let (daemon, a, b) = try await Self.pair()
        try await RPCConnection.withConnection(socketPath: a) { alice in
            let token = try await alice.signUp(email: "alice@example.com", username: "alice")
            let victim = try Self.loggedIn(at: b, token: token)
            #expect(try await alice.call("auth.logout")["loggedOut"] == true)
            let notice = try JSONParser().parse(try #require(victim.readLine()))
            #expect(notice["method"] == "auth.revoked")
            #expect(notice["params"]?["reason"] == "loggedOut")
            victim.send(#"{"jsonrpc":"2.0","method":"auth.whoami","id":2}"# + "\n")
            let answer = try JSONParser().parse(try #require(victim.readLine()))
            #expect(answer["error"]?["code"] == -32001)
        }
        _ = daemon
    }

    /// Before, a revocation and the commit-log entry that tells the other daemons were two writes: when the entry
    /// could not be written, `tokens.revoke` still answered success through A while B went on serving the token's
    /// live connection. Now both are one transaction: the call fails and the token stays valid everywhere, or
    /// both land and B's connection is cut off.
    @Test func aRevocationWhoseBroadcastCannotBeWrittenFailsAndRevokesNothing() async throws {
        let (daemon, a, b) = try await Self.pair()
        let url = try #require(daemon.databaseURL)
        try await RPCConnection.withConnection(socketPath: a) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
            let created = try await alice.call(
                "tokens.create", ["name": "script", "password": "correct horse battery"])
            guard case .string(let token)? = created["token"], let id = created["id"] else {
                throw ClientError.invalidResponse("\(created)")
            }
            let victim = try Self.loggedIn(at: b, token: token)

            try TestPostgres.refuseRevocationEntries(in: url)
            let refused = try await alice.callError("tokens.revoke", ["id": id])
            #expect(refused != nil, "a revocation the other daemons cannot be told of is not answered as done")
            // Still valid everywhere: B's live connection, and a new login on either daemon.
            victim.send(#"{"jsonrpc":"2.0","method":"auth.whoami","id":2}"# + "\n")
            let served = try JSONParser().parse(try #require(victim.readLine()))
            #expect(served["result"]?["user"]?["username"] == "alice", "\(served)")
            for socket in [a, b] {
                _ = try Self.loggedIn(at: socket, token: token)
            }

            // Once entries are written again, both land: B's connection is cut off at once.
            try TestPostgres.acceptRevocationEntries(in: url)
            #expect(try await alice.call("tokens.revoke", ["id": id])["revoked"] == true)
            let notice = try JSONParser().parse(try #require(victim.readLine()))
            #expect(notice["method"] == "auth.revoked", "\(notice)")
            #expect(notice["params"]?["reason"] == "tokenRevoked")
        }
        _ = daemon
    }

    /// A revocation answered through one daemon, and the session or login it ended.
    enum Revoker: String, CaseIterable, Sendable {
        case logout, tokensRevoke, changePassword, resetPassword, unlinkPeer, suspension, deletion

        /// The reason the victim's refusal names.
        var reason: String {
            switch self {
            case .logout: "loggedOut"
            case .tokensRevoke: "tokenRevoked"
            case .changePassword: "passwordChanged"
            case .resetPassword: "passwordReset"
            case .unlinkPeer: "peerUnlinked"
            case .suspension: "suspended"
            case .deletion: "accountDeleted"
            }
        }
    }

    /// Before, daemon A answered a revocation and told daemon B afterwards, through the commit log's notification:
    /// the next request on B's live connection with what it ended was still served. Now A answers once the
    /// revocation is in the log, and B reads the log to its end before it serves a logged-in request: the very
    /// next request is refused, with no waiting for a notification in between.
    @Test(arguments: Revoker.allCases)
    func theNextRequestOnTheOtherDaemonAfterARevocationIsRefused(revoker: Revoker) async throws {
        let daemon = try await DaemonProcess(
            configuration: DaemonProcess.fastHashing + DaemonProcess.adminGroupConfiguration, store: .postgresqlPair)
        let a = daemon.ownSocketPath
        let b = try #require(daemon.partner).ownSocketPath
        _ = try await RPCConnection.withConnection(socketPath: a) { boss in
            try await boss.signUp(email: "boss@example.com", username: "boss")
        }
        try await daemon.grantAdmin(email: "boss@example.com", username: "boss")
        try await RPCConnection.withConnection(socketPath: a) { alice in
            let session = try await alice.signUp(email: "alice@example.com", username: "alice")
            // The victim: alice's login on B, resting on what the revocation ends.
            var credentials = #"{"provider":"token","credentials":{"token":"\#(session)"}}"#
            var tokenID: JSONValue = .null
            switch revoker {
            case .tokensRevoke:
                let created = try await alice.call(
                    "tokens.create", ["name": "script", "password": "correct horse battery"])
                guard case .string(let token)? = created["token"], let id = created["id"] else {
                    throw ClientError.invalidResponse("\(created)")
                }
                credentials = #"{"provider":"token","credentials":{"token":"\#(token)"}}"#
                tokenID = id
            case .unlinkPeer:
                _ = try await alice.call("auth.linkPeer", ["password": "correct horse battery"])
                credentials = #"{"provider":"peer","credentials":{}}"#
            case .changePassword:
                // The caller keeps its own session: it logs in with another one.
                _ = try await alice.logIn(email: "alice@example.com")
            default:
                break
            }
            let victim = try RawSocket(path: b)
            victim.send(#"{"jsonrpc":"2.0","method":"auth.login","params":\#(credentials),"id":1}"# + "\n")
            let login = try JSONParser().parse(try #require(victim.readLine()))
            #expect(login["result"]?["user"] != nil, "\(login)")

            switch revoker {
            case .logout:
                #expect(try await alice.call("auth.logout")["loggedOut"] == true)
            case .tokensRevoke:
                #expect(try await alice.call("tokens.revoke", ["id": tokenID])["revoked"] == true)
            case .changePassword:
                _ = try await alice.call(
                    "auth.changePassword",
                    ["currentPassword": "correct horse battery", "newPassword": "new password 1"])
            case .resetPassword:
                let code = try await RPCConnection.withConnection(socketPath: a) { boss in
                    _ = try await boss.logIn(email: "boss@example.com")
                    return try await boss.call("admin.users.resetPassword", ["username": "alice"])["code"]
                }
                let done = try await alice.call(
                    "auth.resetPassword",
                    ["email": "alice@example.com", "code": code ?? .null, "newPassword": "a new password"])
                #expect(done["passwordChanged"] == true)
            case .unlinkPeer:
                #expect(try await alice.call("auth.unlinkPeer")["unlinked"] == true)
            case .suspension:
                try await RPCConnection.withConnection(socketPath: a) { boss in
                    _ = try await boss.logIn(email: "boss@example.com")
                    _ = try await boss.call("admin.users.suspend", ["username": "alice", "reason": "a test"])
                }
            case .deletion:
                #expect(
                    try await alice.call("account.delete", ["password": "correct horse battery"])["deleted"] == true)
            }

            // At once, with no notification read first: the answer to this request is the refusal.
            victim.send(#"{"jsonrpc":"2.0","method":"auth.whoami","id":2}"# + "\n")
            var answer: JSONValue = .null
            while let line = victim.readLine() {
                let message = try JSONParser().parse(line)
                if message["id"] == 2 {
                    answer = message
                    break
                }
            }
            #expect(answer["error"]?["code"] == -32001, "\(answer)")
            #expect(answer["error"]?["data"]?["reason"] == .string(revoker.reason), "\(answer)")
        }
    }

    @Test func aListsCountIsItsRowsUnderAddsAndRemovesThroughBothDaemonsAndItsStreamIsLiveOnEither() async throws {
        let (daemon, a, b) = try await Self.pair()
        let owner = try await RPCConnection.withConnection(socketPath: a) { connection in
            try await connection.signUp(email: "owner@example.com", username: "owner")
        }
        let names = (0..<24).map { "member\($0)" }
        var tokens: [String: String] = [:]
        for (index, name) in names.enumerated() {
            tokens[name] = try await RPCConnection.withConnection(socketPath: index.isMultiple(of: 2) ? a : b) {
                try await $0.signUp(email: "\(name)@example.com", username: name)
            }
        }
        let list = try await RPCConnection.withConnection(socketPath: a) { connection in
            try await connection.logIn(token: owner)
            return try await connection.call("lists.create", ["name": "crowd"])
        }
        let id = try #require(list["id"])
        guard case .number(let number) = id, let listID = number.int64 else {
            throw ClientError.invalidResponse("\(list)")
        }
        // Every member added through both daemons at once, from a connection each, a third of them taken off
        // again: each write locks the list's row, so the counter moves with the rows whatever the interleaving.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, name) in names.enumerated() {
                for socket in [a, b] {
                    group.addTask {
                        try await RPCConnection.withConnection(socketPath: socket) { connection in
                            try await connection.logIn(token: owner)
                            _ = try await connection.call("lists.add", ["id": id, "username": .string(name)])
                            if index.isMultiple(of: 3) {
                                _ = try await connection.call("lists.remove", ["id": id, "username": .string(name)])
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        for socket in [a, b] {
            try await RPCConnection.withConnection(socketPath: socket) { connection in
                try await connection.logIn(token: owner)
                let counted = try await connection.call("lists.get", ["id": id])["membersCount"]
                let members = try await connection.call("lists.members", ["id": id, "limit": 200])
                guard case .array(let users)? = members["users"] else {
                    throw ClientError.invalidResponse("\(members)")
                }
                #expect(counted == .number(JSONNumber(users.count)), "the count is the rows, through \(socket)")
            }
        }

        // The owner listens on B; a member added through A posts through A: live on B.
        let listener = try Self.loggedIn(at: b, token: owner)
        listener.send(
            #"{"jsonrpc":"2.0","method":"timeline.subscribe","params":{"timeline":"list","listId":\#(listID)},"id":2}"#
                + "\n")
        #expect(try JSONParser().parse(try #require(listener.readLine()))["result"]?["subscription"] != nil)
        try await RPCConnection.withConnection(socketPath: a) { connection in
            try await connection.logIn(token: owner)
            _ = try await connection.call("lists.add", ["id": id, "username": "member0"])
        }
        let posted = try await RPCConnection.withConnection(socketPath: a) { connection in
            try await connection.logIn(token: tokens["member0"] ?? "")
            return try await connection.call("tweets.post", ["text": "on the list, from host A"])
        }
        let pushed = try JSONParser().parse(try #require(listener.readLine()))
        #expect(pushed["method"] == "tweets.new" && pushed["params"]?["tweet"]?["id"] == posted["id"])
        _ = daemon
    }

    /// Peer links, the login throttle's uid counts and the signup buckets were keyed by the bare uid: on one
    /// database, uid 65534 of host B logged in as the account uid 65534 of host A had linked, and the two shared
    /// their guesses and their signups. Everything a uid names is keyed by (host, uid) now, the host being
    /// `[database] host_id` (the machine id by default): two daemons with different ones are two hosts.
    @Test(.enabled(if: ForeignPeer.isPossible, "acting as uid 65534 needs root"))
    func aUidOfOneHostIsNobodyOnAnother() async throws {
        let folder = try TemporaryDirectory.make()
        let sockets = try TemporaryDirectory.make()
        let configuration =
            ForeignPeer.reachableConfiguration + DaemonProcess.fastHashing + "[rates]\nsignups = \"1/1d\"\n"
        func start() async throws -> (daemon: DaemonProcess, a: String, b: String) {
            let daemon = try await DaemonProcess(
                directory: folder, socketDirectory: sockets, configuration: configuration, store: .postgresqlPair,
                hostIDs: ["host-a", "host-b"])
            return (daemon, daemon.ownSocketPath, try #require(daemon.partner).ownSocketPath)
        }
        var (daemon, a, b) = try await start()
        _ = try await RPCConnection.withConnection(socketPath: a) { alice in
            try await alice.signUp(email: "alice@example.com", username: "alice")
        }
        func password(_ password: String) -> JSONValue {
            ["provider": "password", "credentials": ["email": "alice@example.com", "password": .string(password)]]
        }
        let peer: JSONValue = ["provider": "peer", "credentials": [:]]

        // Uid 65534 of host A is linked to alice (her password, shared once) and logs in through the link there.
        let linker = try ForeignPeer(socketPath: a)
        #expect(try linker.errorCode("auth.login", password("correct horse battery")) == nil)
        #expect(try linker.errorCode("auth.linkPeer", ["password": "correct horse battery"]) == nil)
        #expect(try ForeignPeer(socketPath: a).errorCode("auth.login", peer) == nil)
        // The same uid on host B is someone else: nothing links it.
        #expect(try ForeignPeer(socketPath: b).errorCode("auth.login", peer) == -32002)

        // Its wrong guesses on A make it wait on A; the same uid on B has a count of its own.
        let guesser = try ForeignPeer(socketPath: a)
        for _ in 0..<5 { #expect(try guesser.errorCode("auth.login", password("a wrong guess")) == -32002) }
        #expect(try guesser.errorCode("auth.login", password("a wrong guess")) == -32006)
        #expect(try ForeignPeer(socketPath: b).errorCode("auth.login", password("a wrong guess")) == -32002)

        // Its signups on A count on A alone, also once both daemons have saved their buckets and read them back.
        func signUp(_ name: String) -> JSONValue {
            ["email": .string("\(name)@example.com"), "password": "correct horse battery", "username": .string(name)]
        }
        #expect(try ForeignPeer(socketPath: a).errorCode("auth.signup", signUp("first")) == nil)
        #expect(try ForeignPeer(socketPath: a).errorCode("auth.signup", signUp("second")) == -32006)
        daemon.stop()
        (daemon, a, b) = try await start()
        #expect(try ForeignPeer(socketPath: b).errorCode("auth.signup", signUp("third")) == nil, "B's own bucket")
        #expect(try ForeignPeer(socketPath: a).errorCode("auth.signup", signUp("fourth")) == -32006, "A's, kept")
        _ = daemon
    }
}
