import Foundation
import GRDB
import JSONRPC
import TestSupport
import Testing
import TwitterAPI
import TwitterClient
import TwitterCore

/// Running a community over the real socket: admins and what only they may do, suspensions, reports, the
/// account lifecycle and the write rate limits, each checked from the side that must be refused as well.
@Suite(.serialized) struct CommunityTests {
    static let forbidden = -32003
    /// boss is the admin: its stored role, granted as an operator does right after it signs up.
    static let configuration = DaemonProcess.fastHashing + DaemonProcess.adminGroupConfiguration

    static func as_<Result: Sendable>(
        _ name: String, on daemon: DaemonProcess, signUp: Bool = false, _ body: (RPCConnection) async throws -> Result
    ) async throws -> Result {
        guard name == "boss", signUp else { return try await SocialTests.as_(name, on: daemon, signUp: signUp, body) }
        try await SocialTests.as_(name, on: daemon, signUp: true) { _ in }
        try await daemon.grantAdmin(email: "boss@example.com", username: "boss")
        return try await SocialTests.as_(name, on: daemon, body)
    }

    /// Plausible params for every admin method, so a refusal cannot be a params error.
    static let adminParams: [String: JSONValue] = [
        "admin.users.list": [:],
        "admin.users.suspend": ["username": "boss", "reason": "spam"],
        "admin.users.unsuspend": ["username": "boss"],
        "admin.users.resetPassword": ["username": "boss"],
        "admin.tweets.delete": ["id": 1, "reason": "spam"],
        "admin.reports.list": [:],
        "admin.reports.resolve": ["id": 1, "note": "done"],
        "admin.audit.list": [:],
        "admin.roles.grant": ["username": "alice"],
        "admin.roles.revoke": ["username": "boss"],
    ]

    @Test func aNonAdminIsRefusedOnEveryAdminMethodAndNothingHappens() async throws {
        let daemon = try await DaemonProcess(configuration: Self.configuration)
        try await Self.as_("boss", on: daemon, signUp: true) { (boss) async throws in
            #expect(try await boss.call(API.Auth.whoami).role == .admin)
            _ = try await boss.call(API.Tweets.post, .init(text: "the rules"))
        }
        try await Self.as_("eve", on: daemon, signUp: true) { (eve) async throws in
            #expect(try await eve.call(API.Auth.whoami).role == .user)
            guard case .array(let methods)? = try await eve.call("rpc.discover")["methods"] else {
                Issue.record("no methods")
                return
            }
            let adminMethods = methods.compactMap { method -> String? in
                guard case .string(let name)? = method["name"], name.hasPrefix("admin.") else { return nil }
                #expect(method["x-authentication"] == "admin", "\(name)")
                return name
            }
            #expect(Set(adminMethods) == Set(Self.adminParams.keys), "every admin method is covered here")
            for name in adminMethods {
                let error = try await eve.callError(name, Self.adminParams[name])
                #expect(error?.code == Self.forbidden, "\(name): \(String(describing: error))")
                #expect(error?.message.contains("Only admins") == true, "\(name)")
            }
        }
        // Anonymous: a login first.
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { (anonymous) async throws in
            #expect(try await anonymous.callError("admin.users.list", [:])?.code == -32001)
        }
        // Nothing of it happened: boss is active, the tweet is there, the audit log holds only boss's own grant.
        try await Self.as_("boss", on: daemon) { (boss) async throws in
            let users = try await boss.call(API.Admin.usersList, .init())
            #expect(users.users.map(\.status) == [.active, .active])
            #expect(try await boss.call(API.Tweets.fetch, .init()).tweets.count == 1)
            #expect(try await boss.call(API.Admin.auditList, .init()).entries.map(\.action) == ["admin.roles.grant"])
        }
        #expect(daemon.log.contains("admin method refused"))
    }

    /// Bob has done everything an account can that shows elsewhere: tweets with a tag, a reply and a mention to
    /// alice, a repost and a like of hers, a follow of her. Carol follows both.
    static func bobEverywhere(on daemon: DaemonProcess) async throws -> (alice: Tweet, bob: Tweet) {
        for name in ["boss", "alice", "bob", "carol"] { try await Self.as_(name, on: daemon, signUp: true) { _ in } }
        let aliceTweet = try await Self.as_("alice", on: daemon) { (alice) async throws in
            try await alice.call(API.Tweets.post, .init(text: "alice asks about #gardens"))
        }
        let bobTweet = try await Self.as_("bob", on: daemon) { (bob) async throws in
            _ = try await bob.call(API.Users.follow, .init(username: "alice"))
            _ = try await bob.call(API.Tweets.like, .init(id: aliceTweet.id))
            _ = try await bob.call(API.Tweets.repost, .init(id: aliceTweet.id))
            _ = try await bob.call(
                API.Tweets.post, .init(text: "@alice tomatoes in #gardens", inReplyToId: aliceTweet.id))
            return try await bob.call(API.Tweets.post, .init(text: "mulch everything #gardens"))
        }
        try await Self.as_("carol", on: daemon) { (carol) async throws in
            _ = try await carol.call(API.Users.follow, .init(username: "alice"))
            _ = try await carol.call(API.Users.follow, .init(username: "bob"))
            _ = try await carol.call(API.Tweets.post, .init(text: "carol agrees", inReplyToId: aliceTweet.id))
        }
        return (aliceTweet, bobTweet)
    }

    /// Every answer where bob could show, as `reader` gets it, in raw JSON.
    static func sight(of reader: RPCConnection, aliceTweet: Tweet) async throws -> [String: JSONValue] {
        let id = JSONValue.number(JSONNumber(Int(aliceTweet.id)))
        var sight: [String: JSONValue] = [:]
        for (name, params) in [
            ("timeline.public", JSONValue.object([:])), ("timeline.home", [:]),
            ("timeline.user", ["username": "alice"]),
            ("users.get", ["username": "alice"]), ("users.get", ["username": "carol"]), ("tweets.get", ["id": id]),
            ("tweets.thread", ["id": id]), ("tweets.likedBy", ["id": id]), ("search.tweets", ["query": "gardens"]),
            ("search.users", ["query": "b"]), ("tags.tweets", ["tag": "gardens"]), ("tags.trending", [:]),
            ("users.followers", ["username": "alice"]), ("users.following", ["username": "carol"]),
            ("notifications.list", [:]), ("notifications.unreadCount", [:]),
        ] {
            sight["\(name) \(params.serialized)"] = try await reader.call(name, params)
        }
        return sight
    }

    @Test func suspensionHidesEverythingAndUnsuspensionRestoresItExactly() async throws {
        let daemon = try await DaemonProcess(configuration: Self.configuration)
        let (aliceTweet, bobTweet) = try await Self.bobEverywhere(on: daemon)
        let before = try await Self.as_("alice", on: daemon) { try await Self.sight(of: $0, aliceTweet: aliceTweet) }
        let carolBefore = try await Self.as_("carol", on: daemon) {
            try await Self.sight(of: $0, aliceTweet: aliceTweet)
        }
        #expect(before.values.contains { $0.serialized.contains("bob") }, "bob shows before")

        try await Self.as_("boss", on: daemon) { (boss) async throws in
            let suspended = try await boss.call(API.Admin.suspend, .init(username: "bob", reason: "spam links"))
            #expect(suspended.status == .suspended && suspended.suspendedReason == "spam links")
        }
        for reader in ["alice", "carol"] {
            let during = try await Self.as_(reader, on: daemon) { try await Self.sight(of: $0, aliceTweet: aliceTweet) }
            for (call, answer) in during {
                #expect(!answer.serialized.contains("bob"), "\(reader): \(call) still shows bob: \(answer.serialized)")
            }
            // Counts drop by bob's part: his like, repost and reply; his follow.
            let tweet = try #require(during.first { $0.key.hasPrefix("tweets.get") }?.value)
            #expect(tweet["likesCount"] == 0 && tweet["repostsCount"] == 0 && tweet["repliesCount"] == 1)
            let alice = try #require(during.first { $0.key.hasPrefix("users.get") && $0.key.contains("alice") }?.value)
            #expect(alice["followersCount"] == 1)
            // His reply keeps its place in the thread as a placeholder.
            let thread = try #require(during.first { $0.key.hasPrefix("tweets.thread") }?.value)
            guard case .array(let descendants)? = thread["descendants"] else {
                Issue.record("no descendants")
                continue
            }
            #expect(descendants.filter { $0["deleted"] == true }.count == 1)
        }
        try await Self.as_("alice", on: daemon) { (alice) async throws in
            #expect(try await alice.callError("users.get", ["username": "bob"])?.code == -32004)
            #expect(try await alice.callError("users.follow", ["username": "bob"])?.code == -32004)
            // His tweets asked for by id are as if absent: no like, repost, reply or likers of them.
            let id = JSONValue.number(JSONNumber(Int(bobTweet.id)))
            for (method, params) in [
                ("tweets.get", ["id": id]), ("tweets.like", ["id": id]), ("tweets.repost", ["id": id]),
                ("tweets.likedBy", ["id": id]), ("tweets.thread", ["id": id]),
                ("tweets.post", ["text": "hello?", "inReplyToId": id]),
            ] as [(String, JSONValue)] {
                #expect(try await alice.callError(method, params)?.code == -32004, "\(method)")
            }
        }
        // Bob cannot log in, and is told why.
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { (bob) async throws in
            let refused = try #require(
                try await bob.callError(
                    "auth.login",
                    [
                        "provider": "password",
                        "credentials": ["email": "bob@example.com", "password": "correct horse battery"],
                    ]))
            #expect(refused.code == Self.forbidden)
            #expect(refused.data["reason"] == "spam links")
        }
        try await Self.as_("boss", on: daemon) { (boss) async throws in
            let list = try await boss.call(API.Admin.usersList, .init(status: .suspended))
            #expect(list.users.map(\.username) == ["bob"])
            #expect(try await boss.call(API.Admin.unsuspend, .init(username: "bob")).status == .active)
            let audit = try await boss.call(API.Admin.auditList, .init()).entries.filter {
                $0.action != "admin.roles.grant"
            }
            #expect(audit.map(\.action) == ["admin.users.unsuspend", "admin.users.suspend"])
            #expect(audit.allSatisfy { $0.actor == "boss" && $0.target == "bob" })
            #expect(audit.last?.reason == "spam links")
        }
        #expect(
            try await Self.as_("alice", on: daemon) { try await Self.sight(of: $0, aliceTweet: aliceTweet) } == before)
        #expect(
            try await Self.as_("carol", on: daemon) { try await Self.sight(of: $0, aliceTweet: aliceTweet) }
                == carolBefore)
        try await Self.as_("bob", on: daemon) { (bob) async throws in
            #expect(try await bob.call(API.Auth.whoami).user.username == "bob")
        }
        #expect(daemon.log.contains("audit"))
    }

    @Test func aSuspendedAccountsLiveConnectionIsCutOffAtOnce() async throws {
        let daemon = try await DaemonProcess(configuration: Self.configuration)
        try await Self.as_("boss", on: daemon, signUp: true) { _ in }
        let token = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { (bob) async throws in
            try await bob.signUp(email: "bob@example.com", username: "bob")
        }
        let victim = try RevocationTests.subscribedVictim(daemon, credentials: RevocationTests.tokenCredentials(token))
        try await Self.as_("boss", on: daemon) { (boss) async throws in
            _ = try await boss.call(API.Admin.suspend, .init(username: "bob", reason: "threats"))
        }
        try await RevocationTests.expectCutOff(victim, reason: "suspended", daemon: daemon)
        // The saved session does not bring it back either.
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { (bob) async throws in
            let refused = try await bob.callError(
                "auth.login", try JSONParser().parse(RevocationTests.tokenCredentials(token)))
            #expect(refused?.code == Self.forbidden && refused?.data["reason"] == "threats")
        }
        // Suspending yourself is refused; an unknown account is -32004.
        try await Self.as_("boss", on: daemon) { (boss) async throws in
            #expect(
                try await boss.callError("admin.users.suspend", ["username": "boss", "reason": "x"])?.code == -32602)
            #expect(
                try await boss.callError("admin.users.suspend", ["username": "nobody", "reason": "x"])?.code == -32004)
            #expect(
                try await boss.callError("admin.users.suspend", ["username": "bob", "reason": "  "])?.code == -32602)
        }
    }

    @Test func reportsReachTheAdminsNotificationsAndAreResolved() async throws {
        let daemon = try await DaemonProcess(configuration: Self.configuration)
        try await Self.as_("boss", on: daemon, signUp: true) { _ in }
        let spam = try await Self.as_("bob", on: daemon, signUp: true) { (bob) async throws in
            try await bob.call(API.Tweets.post, .init(text: "buy followers now"))
        }
        try await Self.as_("carol", on: daemon, signUp: true) { _ in }
        try await Self.as_("boss", on: daemon) { (boss) async throws in
            _ = try await boss.call(API.Users.block, .init(username: "carol"))
        }
        // boss blocks carol: her report still reaches him, live and in the list, and names bob's tweet.
        let live = try RawSocket(path: daemon.socketPath)
        live.send(
            #"{"jsonrpc":"2.0","method":"auth.login","params":{"provider":"password","credentials":{"email":"boss@example.com","password":"correct horse battery"}},"id":1}"#
                + "\n")
        _ = try #require(live.readLine())
        live.send(#"{"jsonrpc":"2.0","method":"notifications.subscribe","id":2}"# + "\n")
        _ = try #require(live.readLine())
        let reportID = try await Self.as_("carol", on: daemon) { (carol) async throws in
            #expect(try await carol.callError("reports.create", ["reason": "spam"])?.code == -32602)
            #expect(try await carol.callError("reports.create", ["username": "carol", "reason": "me"])?.code == -32602)
            #expect(
                try await carol.callError(
                    "reports.create", ["username": "boss", "tweetId": .number(JSONNumber(Int(spam.id))), "reason": "x"])?
                    .code == -32602, "the tweet is not boss's")
            return try await carol.call(API.Reports.create, .init(tweetId: spam.id, reason: "spam")).id
        }
        let pushed = try JSONParser().parse(try #require(live.readLine()))
        #expect(pushed["method"] == "notifications.new")
        #expect(pushed["params"]?["notification"]?["type"] == "admin.report")
        #expect(pushed["params"]?["notification"]?["reportId"] == .number(JSONNumber(Int(reportID))))
        try await Self.as_("boss", on: daemon) { (boss) async throws in
            let notifications = try await boss.call(API.Notifications.list, .init())
            let report = try #require(notifications.notifications.first)
            #expect(report.type == .adminReport && report.reportID == reportID)
            #expect(report.from.username == "carol" && report.tweet?.id == spam.id)
            #expect(notifications.unread == 1)

            let open = try await boss.call(API.Admin.reportsList, .init(status: .open))
            #expect(open.reports.map(\.id) == [reportID])
            #expect(open.reports.first?.username == "bob" && open.reports.first?.reporter == "carol")
            #expect(open.reports.first?.tweetID == spam.id && open.reports.first?.note == nil)

            let resolved = try await boss.call(API.Admin.resolve, .init(id: reportID, note: "tweet removed"))
            #expect(resolved.status == .resolved && resolved.note == "tweet removed")
            #expect(try await boss.call(API.Admin.deleteTweet, .init(id: spam.id, reason: "spam")).deleted)
            #expect(try await boss.call(API.Admin.reportsList, .init(status: .open)).reports.isEmpty)
            #expect(
                try await boss.call(API.Admin.reportsList, .init(status: .resolved)).reports.map(\.id) == [reportID])
            #expect(try await boss.callError("admin.reports.resolve", ["id": 999])?.code == -32004)
            let audit = try await boss.call(API.Admin.auditList, .init()).entries
            #expect(audit.map(\.action) == ["admin.tweets.delete", "admin.reports.resolve", "admin.roles.grant"])
            #expect(audit.first?.target == "tweet \(spam.id) by bob")
        }
        try await Self.as_("bob", on: daemon) { (bob) async throws in
            #expect(try await bob.callError("tweets.get", ["id": .number(JSONNumber(Int(spam.id)))])?.code == -32004)
        }
    }

    @Test func anExportOfFiveThousandTweetsIsCompleteAndReadableAgain() async throws {
        let daemon = try await DaemonProcess(configuration: Self.configuration + DaemonProcess.unlimitedWrites)
        for name in ["bob", "carol"] { try await Self.as_(name, on: daemon, signUp: true) { _ in } }
        let config = try TemporaryDirectory.make(prefix: "twctl-export")
        // One socket for twctl, which keeps its session per socket (with two daemons, one of them).
        let socket = daemon.socketPath
        let twctl = { (arguments: [String], input: String?) in
            try runProduct(
                "twctl", arguments,
                environment: ["TWITTERD_SOCKET": socket, "XDG_CONFIG_HOME": config, "NO_COLOR": "1"],
                input: input)
        }
        let signup = try twctl(
            ["signup", "--email", "alice@example.com", "--username", "alice", "--password-stdin"],
            "correct horse battery\n")
        #expect(signup.status == 0, "\(signup.error)")
        let posted = try await Self.as_("alice", on: daemon) { (alice) async throws in
            // Pipelined on one connection: they share commits.
            let ids = try await withThrowingTaskGroup(of: Int64.self) { group in
                for number in 0..<5000 {
                    group.addTask { try await alice.call(API.Tweets.post, .init(text: "tweet number \(number)")).id }
                }
                return try await group.reduce(into: [Int64]()) { $0.append($1) }
            }
            _ = try await alice.call(API.Users.follow, .init(username: "bob"))
            _ = try await alice.call(API.Users.mute, .init(username: "bob"))
            _ = try await alice.call(API.Users.block, .init(username: "carol"))
            // The oldest: the tasks finish in any order.
            _ = try await alice.call(API.Tweets.like, .init(id: try #require(ids.min())))
            #expect(try await alice.callError("account.export", ["cursor": "nonsense"])?.code == -32602)
            return ids.sorted()
        }
        let export = try twctl(["export"], nil)
        #expect(export.status == 0, "\(export.error)")
        #expect(export.error.contains("Exported 5000 tweets, 1 follows, 1 likes, 1 mutes, 1 blocks"), "\(export.error)")
        let archive = try JSONParser().parse(export.output)
        guard case .array(let tweets)? = archive["tweets"] else {
            Issue.record("no tweets")
            return
        }
        #expect(tweets.compactMap { $0["id"].flatMap(Int64.init(json:)) } == posted, "every tweet once, oldest first")
        #expect(archive["profile"]?["username"] == "alice" && archive["profile"]?["email"] == "alice@example.com")
        #expect(archive["follows"]?[0]?["username"] == "bob" && archive["mutes"]?[0]?["username"] == "bob")
        #expect(archive["blocks"]?[0]?["username"] == "carol")
        #expect(archive["likes"]?[0]?["tweetId"].flatMap(Int64.init(json:)) == posted[0])
        #expect(archive["nextCursor"] == .null)
        // Re-readable: the file decodes as the archive type itself.
        let decoded = try JSONValueDecoder().decode(AccountArchivePage.self, from: archive)
        #expect(Set(decoded.tweets.map(\.text)) == Set((0..<5000).map { "tweet number \($0)" }))
    }

    @Test func deletingAnAccountRemovesEveryTraceOfIt() async throws {
        // SQLite: the check below reads every table of the file; the store suite checks PostgreSQL's deletion.
        let daemon = try await DaemonProcess(configuration: Self.configuration, store: .sqlite)
        let (aliceTweet, _) = try await Self.bobEverywhere(on: daemon)
        let countsBefore = try await Self.as_("alice", on: daemon) { (alice) async throws in
            _ = try await alice.call(API.Users.follow, .init(username: "bob"))
            _ = try await alice.call(API.Users.mute, .init(username: "carol"))
            return try await alice.call(API.Tweets.get, .init(id: aliceTweet.id))
        }
        #expect(countsBefore.counts.likes == 1 && countsBefore.counts.replies == 2)
        try await Self.as_("boss", on: daemon) { (boss) async throws in
            _ = try await boss.call(API.Admin.resetPassword, .init(username: "bob"))
        }
        // A failed login leaves a throttle row for bob's e-mail.
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { (stranger) async throws in
            _ = try await stranger.callError(
                "auth.login",
                ["provider": "password", "credentials": ["email": "bob@example.com", "password": "wrong password"]])
        }
        let bobID = try await Self.as_("bob", on: daemon) { bob -> Int64 in
            _ = try await bob.call(API.Users.mute, .init(username: "carol"))
            _ = try await bob.call(API.Users.block, .init(username: "boss"))
            _ = try await bob.call("tokens.create", ["name": "script", "password": "correct horse battery"])
            _ = try await bob.call("auth.linkPeer", ["password": "correct horse battery"])
            _ = try await bob.call(API.Reports.create, .init(username: "carol", reason: "rude"))
            return try await bob.call(API.Auth.whoami).user.id
        }
        try await Self.as_("carol", on: daemon) { (carol) async throws in
            _ = try await carol.call(API.Reports.create, .init(username: "bob", reason: "spam"))
        }
        let token = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { (bob) async throws in
            guard case .string(let token)? = try await bob.logIn(email: "bob@example.com")["session"]?["token"] else {
                throw ClientError.invalidResponse("no session token")
            }
            return token
        }
        let live = try RevocationTests.subscribedVictim(daemon, credentials: RevocationTests.tokenCredentials(token))
        try await Self.as_("bob", on: daemon) { (bob) async throws in
            let wrong = try await bob.callError("account.delete", ["password": "not it"])
            #expect(wrong?.code == -32002)
            let deleted = try await bob.call(API.Account.delete, .init(password: "correct horse battery"))
            #expect(deleted.deleted)
            #expect(deleted.usernameReservedUntil.timeIntervalSinceNow > 29 * 86_400)
            #expect(try await bob.callError("auth.whoami")?.code == -32001, "this connection ends too")
        }
        try await RevocationTests.expectCutOff(live, reason: "accountDeleted", daemon: daemon)

        // What others see is as if bob had never acted.
        try await Self.as_("alice", on: daemon) { (alice) async throws in
            let tweet = try await alice.call(API.Tweets.get, .init(id: aliceTweet.id))
            #expect(tweet.counts.likes == 0 && tweet.counts.reposts == 0 && tweet.counts.replies == 1)
            #expect(try await alice.call(API.Users.get, .init(username: "alice")).followersCount == 1)
            #expect(!(try await alice.call("notifications.list").serialized.contains("bob")))
        }
        // The name stays taken.
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { (newcomer) async throws in
            let taken = try await newcomer.callError(
                "auth.signup", ["email": "new@example.com", "password": "correct horse battery", "username": "BOB"])
            #expect(taken?.code == -32005)
        }

        // Every table: no column that refers to an account holds bob's id, and no text holds his name or e-mail.
        let database = try DatabaseQueue(
            path: daemon.databasePath,
            configuration: {
                var configuration = Configuration()
                configuration.readonly = true
                return configuration
            }())
        try await database.read { db in
            let tables = try String.fetchAll(
                db,
                sql:
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'tweet_search%'"
            )
            #expect(tables.count >= 20, "\(tables)")
            for table in tables {
                for reference in try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(table))")
                where reference["table"] == "user" {
                    let column: String = reference["from"]
                    let count = try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM \(table) WHERE \(column) = ?", arguments: [bobID])
                    #expect(count == 0, "\(table).\(column) still holds bob")
                }
                // The audit log keeps admins' actions by name, and the reservation keeps the name: both by design.
                guard !["audit_entries", "reserved_usernames"].contains(table) else { continue }
                for column in try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))") {
                    let name: String = column["name"]
                    // Another account's Argon2id hash is random base64, which spells "bob" (LIKE ignores case) about
                    // once in a few hundred hashes: not a trace of bob.
                    if name == "password_hash" { continue }
                    let count = try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM \(table) WHERE CAST(\(name) AS TEXT) LIKE '%bob%'")
                    #expect(count == 0, "\(table).\(name) still names bob")
                }
            }
            #expect(
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tweet_search WHERE tweet_search MATCH 'mulch'") == 0)
            #expect(
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM reserved_usernames WHERE username_key = 'bob'") == 1)
        }
    }

    @Test func aResetCodeWorksOnceAndEndsEverySession() async throws {
        let daemon = try await DaemonProcess(configuration: Self.configuration)
        try await Self.as_("boss", on: daemon, signUp: true) { _ in }
        let token = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { (bob) async throws in
            try await bob.signUp(email: "bob@example.com", username: "bob")
        }
        let victim = try RevocationTests.subscribedVictim(daemon, credentials: RevocationTests.tokenCredentials(token))
        let code = try await Self.as_("boss", on: daemon) { (boss) async throws in
            let answer = try await boss.call(API.Admin.resetPassword, .init(username: "bob"))
            #expect(abs(answer.expiresAt.timeIntervalSinceNow - 3600) < 60)
            return answer.code
        }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { (anyone) async throws in
            let wrong = try await anyone.callError(
                "auth.resetPassword",
                ["email": "bob@example.com", "code": "twr_guess", "newPassword": "a new password"])
            #expect(wrong?.code == -32002 && wrong?.data["fields"]?["code"] != nil)
            let short = try await anyone.callError(
                "auth.resetPassword", ["email": "bob@example.com", "code": .string(code), "newPassword": "short"])
            #expect(short?.code == -32602, "a refused password does not use the code up")
            let done = try await anyone.call(
                API.Auth.resetPassword, .init(email: "bob@example.com", code: code, newPassword: "a new password"))
            #expect(done.passwordChanged)
        }
        try await RevocationTests.expectCutOff(victim, reason: "passwordReset", daemon: daemon)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { (bob) async throws in
            #expect(
                try await bob.callError("auth.login", try JSONParser().parse(RevocationTests.tokenCredentials(token)))?
                    .code == -32002)
            #expect(
                try await bob.callError(
                    "auth.login",
                    [
                        "provider": "password",
                        "credentials": ["email": "bob@example.com", "password": "correct horse battery"],
                    ])?
                    .code == -32002)
            _ = try await bob.logIn(email: "bob@example.com", password: "a new password")
            let again = try await bob.callError(
                "auth.resetPassword",
                ["email": "bob@example.com", "code": .string(code), "newPassword": "another one!"])
            #expect(again?.code == -32002, "a code works once")
        }
    }

    @Test func writeLimitsAnswerRetryAfterAcrossConnectionsAndRestarts() async throws {
        let directory = try TemporaryDirectory.make()
        let limited = Self.configuration + "[rates]\nposts = \"3/1h\"\nfollows = \"1/1d\"\nreports = \"1/1d\"\n"
        do {
            let daemon = try await DaemonProcess(directory: directory, configuration: limited)
            try await Self.as_("carol", on: daemon, signUp: true) { _ in }
            try await Self.as_("bob", on: daemon, signUp: true) { _ in }
            try await Self.as_("alice", on: daemon, signUp: true) { (one) async throws in
                try await Self.as_("alice", on: daemon) { (two) async throws in
                    // With two daemons, each charges the other's posts to the bucket when it is told of them,
                    // before its live streams hear them (`OtherDaemonsRelay`), and a burst through both in the
                    // same instant can overrun the limit (PROTOCOL.md). So each connection waits until its
                    // daemon's stream has carried all three posts: a page read no longer shows that, since a
                    // daemon current under its read lease answers a page without reading the shared log.
                    for connection in [one, two] {
                        _ = try await connection.call(API.Tweets.subscribe, .init(author: "alice"))
                    }
                    // Shared by the account's connections.
                    _ = try await one.call(API.Tweets.post, .init(text: "one"))
                    _ = try await two.call(API.Tweets.post, .init(text: "two"))
                    _ = try await one.call(API.Tweets.post, .init(text: "three"))
                    for connection in [one, two] {
                        try await Self.waitForStreamedTweets(["one", "two", "three"], on: connection)
                    }
                    let refused = try #require(try await two.callError("tweets.post", ["text": "four"]))
                    #expect(refused.code == -32006)
                    guard case .number(let seconds)? = refused.data["retryAfter"], let wait = Int(seconds.text) else {
                        Issue.record("no retryAfter: \(refused)")
                        return
                    }
                    #expect((1...1200).contains(wait), "one post comes back every 20 minutes: \(wait)")
                    // Each action has its own bucket.
                    _ = try await one.call(API.Users.follow, .init(username: "bob"))
                    #expect(try await one.callError("users.follow", ["username": "carol"])?.code == -32006)
                    #expect(try await one.callError("tweets.post", ["text": "x", "inReplyToId": 1])?.code == -32006)
                    _ = try await one.call(API.Reports.create, .init(username: "bob", reason: "first"))
                    #expect(
                        try await one.callError("reports.create", ["username": "carol", "reason": "x"])?.code == -32006)
                }
            }
            // Another account has its own.
            try await Self.as_("bob", on: daemon) { bob in _ = try await bob.call(API.Tweets.post, .init(text: "mine"))
            }
            #expect(daemon.stop() == 0, "a graceful stop saves the buckets")
        }
        let restarted = try await DaemonProcess(directory: directory, configuration: limited)
        try await Self.as_("alice", on: restarted) { (alice) async throws in
            #expect(try await alice.callError("tweets.post", ["text": "after the restart"])?.code == -32006)
        }
    }
}

extension CommunityTests {
    /// Waits until `connection`'s tweet subscription has carried a tweet of each of `texts`.
    static func waitForStreamedTweets(_ texts: Set<String>, on connection: RPCConnection) async throws {
        var missing = texts
        for await notification in connection.notifications where notification.method == "tweets.new" {
            guard case .string(let text)? = notification.params["tweet"]?["text"] else { continue }
            missing.remove(text)
            if missing.isEmpty { return }
        }
        Issue.record("the connection closed before its stream carried \(missing.sorted())")
    }
}

extension Int64 {
    /// A JSON integer as an Int64.
    init?(json: JSONValue) {
        guard case .number(let number) = json, let value = Int64(number.text) else { return nil }
        self = value
    }
}

/// `twctl admin …`, `twctl report` and `twctl reset-password`: a community run from the command line.
@Suite(.serialized) struct TwctlCommunityTests {
    @Test func anAdminRunsTheCommunityFromTwctl() async throws {
        let daemon = try await DaemonProcess(configuration: CommunityTests.configuration)
        let boss = try TwctlSocialTests.Person("boss", on: daemon)
        let bob = try TwctlSocialTests.Person("bob", on: daemon)
        let eve = try TwctlSocialTests.Person("eve", on: daemon)
        try await daemon.grantAdmin(email: "boss@example.com", username: "boss")

        let refused = try eve.run(["admin", "users"])
        #expect(refused.status == 77 && refused.error.contains("Only admins may call admin.users.list"), "\(refused)")

        #expect(try eve.run(["report", "bob", "--reason", "spam"]).output.contains("the admins are notified"))
        let reports = try boss.run(["admin", "reports", "--status", "open"])
        #expect(reports.output.contains("@eve reported @bob: spam"), "\(reports.output)")
        let suspended = try boss.run(["admin", "suspend", "bob", "--reason", "spam"])
        #expect(suspended.status == 0 && suspended.output.contains("@bob  bob@example.com  suspended  (spam)"))
        let users = try boss.json(["admin", "users", "--status", "suspended"])
        #expect(users["users"]?[0]?["username"] == "bob" && users["users"]?[1] == nil)
        #expect(try bob.run(["whoami"]).status == 77, "bob's saved session no longer logs in")
        #expect(try boss.run(["admin", "unsuspend", "bob"]).output.contains("@bob  bob@example.com  active"))
        #expect(try boss.run(["admin", "resolve", "1", "--note", "warned"]).output.contains("Report 1 resolved."))
        let audit = try boss.run(["admin", "audit"]).output
        #expect(audit.contains("@boss admin.users.suspend bob: spam"), "\(audit)")
        #expect(audit.contains("@boss admin.reports.resolve report 1: warned"))

        let code = String(try boss.run(["admin", "reset-password", "bob"]).output.prefix { $0 != "\n" })
        #expect(code.hasPrefix("twr_"))
        let reset = try bob.run(
            ["reset-password", "--email", "bob@example.com", "--code", code, "--password-stdin"],
            input: "a new password\n")
        #expect(reset.status == 0 && reset.output.contains("Password set"), "\(reset)")
        let login = try bob.run(
            ["login", "--email", "bob@example.com", "--password-stdin"], input: "a new password\n")
        #expect(login.status == 0, "\(login)")
        let deleted = try eve.run(["delete-account", "--password-stdin"], input: "correct horse battery\n")
        #expect(deleted.status == 0 && deleted.output.contains("Account deleted"), "\(deleted)")
        #expect(try eve.run(["whoami"]).status == 77)
    }
}
