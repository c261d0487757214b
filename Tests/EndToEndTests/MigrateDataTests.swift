import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// `twitterd migrate-data`, as an operator moves a service: a SQLite daemon used through the protocol, stopped,
/// copied into an empty PostgreSQL database, and a daemon on that database answering every read the same.
@Suite(.serialized) struct MigrateDataTests {
    /// boss is the admin; posting as fast as a test does is allowed.
    static let configuration =
        DaemonProcess.fastHashing + DaemonProcess.unlimitedWrites + DaemonProcess.adminGroupConfiguration

    /// The session tokens of everyone who signed up, by username.
    typealias Sessions = [String: String]

    @Test func aSQLiteDatabaseMovesToPostgreSQLAndAnswersAlike() async throws {
        let sqlite = try await DaemonProcess(configuration: Self.configuration, store: .sqlite)
        let (sessions, apiToken, tweetIDs, deletedID) = try await Self.useEverything(on: sqlite)
        let before = try await Self.answers(on: sqlite, sessions: sessions, tweetIDs: tweetIDs)
        #expect(sqlite.stop() == 0)

        // A key a later feature keeps beside the database goes along by the same rule as the token key.
        let otherKey = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        #expect(FileManager.default.createFile(atPath: sqlite.directory + "/messages.key", contents: otherKey))
        // The daemons on PostgreSQL keep their state (the keys) in a folder of their own, as on a new host.
        let folder = try TemporaryDirectory.make()
        let url = try TestPostgres.database(for: folder)
        let copied = try runProduct(
            "twitterd", ["migrate-data", "--from", sqlite.databasePath, "--to", url],
            environment: ["STATE_DIRECTORY": folder])
        #expect(copied.status == 0, "\(copied.error)")
        #expect(copied.output.contains("every table's row count matches"), "\(copied.output)")
        #expect(copied.output.contains("tweets: \(tweetIDs.count) sqlite, \(tweetIDs.count) postgresql, ok"))
        #expect(copied.output.contains("notification_markers: "), "\(copied.output)")
        // Every kind of row was there to copy: an empty table would prove nothing.
        for table in [
            "tokens", "notifications", "notification_markers", "password_resets", "tweet_likes", "tweet_mentions",
            "tweet_tags", "follows", "mutes", "blocks", "reports", "lists", "list_members",
        ] {
            #expect(!copied.output.contains("  \(table): 0 sqlite"), "\(table) is empty")
        }
        let audit = before.first { $0.key.hasPrefix("boss admin.audit.list") }?.value
        #expect(audit?["entries"]?[0] != nil, "the admin's actions are in the audit log")
        #expect(copied.error.isEmpty, "stderr is no terminal: no progress bar")

        // Before, the daemon on PostgreSQL made itself a new token key unless the operator copied the old one by
        // hand, and refused every session and token. The keys were carried into its state folder, private.
        #expect(copied.output.contains("carried the key \(sqlite.directory)/token.key to \(folder)/token.key"))
        #expect(FileManager.default.contents(atPath: folder + "/messages.key") == otherKey)
        for key in ["token.key", "messages.key"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + key)
            #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(key)")
        }
        let postgres = try await DaemonProcess(
            directory: folder, configuration: Self.configuration, environment: ["STATE_DIRECTORY": folder],
            store: .postgresql)
        let after = try await Self.answers(on: postgres, sessions: sessions, tweetIDs: tweetIDs)
        #expect(after.count == before.count)
        for (call, answer) in before {
            #expect(after[call] == answer, "\(call)")
        }
        try await RPCConnection.withConnection(socketPath: postgres.socketPath) { connection in
            // The password hash came along.
            let login = try await connection.logIn(email: "alice@example.com")
            #expect(login["user"]?["username"] == "alice", "\(login)")
            // So did the API token. A new post gets an id above every copied one, and above the last tweet's,
            // which the admin deleted: an id is never given out twice.
            try await connection.logIn(token: apiToken)
            let posted = try await connection.call("tweets.post", ["text": "hello from postgres"])
            guard case .number(let id)? = posted["id"], let newID = id.int64 else {
                throw ClientError.invalidResponse("\(posted)")
            }
            #expect(newID > max(tweetIDs.max() ?? 0, deletedID), "\(newID)")
            // A new account too: with the users' sequence left at 1 its id would collide with boss's.
            try await connection.signUp(email: "erin@example.com", username: "erin")
            #expect(try await connection.call("users.get", ["username": "erin"])["username"] == "erin")
        }
        #expect(postgres.stop() == 0)
    }

    @Test func aTargetThatHoldsDataIsRefusedAndLeftAlone() async throws {
        let sqlite = try await DaemonProcess(configuration: Self.configuration, store: .sqlite)
        try await RPCConnection.withConnection(socketPath: sqlite.socketPath) { connection in
            try await connection.signUp(email: "alice@example.com", username: "alice")
            _ = try await connection.call("tweets.post", ["text": "only one"])
        }
        #expect(sqlite.stop() == 0)
        let url = try TestPostgres.freshDatabase()
        let state = try TemporaryDirectory.make()
        let first = try runProduct(
            "twitterd", ["migrate-data", "--from", sqlite.databasePath, "--to", url, "--state-folder", state])
        #expect(first.status == 0, "\(first.error)")
        let second = try runProduct(
            "twitterd", ["migrate-data", "--from", sqlite.databasePath, "--to", url, "--state-folder", state])
        #expect(second.status == 1)
        #expect(second.error.contains("not empty (1 users, 1 tweets)"), "\(second.error)")
        // A file that is not there is named, not taken for an empty database.
        let missing = try runProduct(
            "twitterd",
            ["migrate-data", "--from", sqlite.directory + "/nothing.sqlite", "--to", url, "--state-folder", state])
        #expect(missing.status == 1)
        #expect(missing.error.contains("no database at"), "\(missing.error)")
        // While a daemon serves the file, the copy would miss its writes: refused with EX_TEMPFAIL.
        let serving = try await DaemonProcess(
            directory: sqlite.directory, configuration: Self.configuration, store: .sqlite)
        let busy = try runProduct(
            "twitterd", ["migrate-data", "--from", sqlite.databasePath, "--to", url, "--state-folder", state])
        #expect(busy.status == 75, "\(busy.error)")
        #expect(busy.error.contains("is in use; stop its daemon first"), "\(busy.error)")
        #expect(serving.stop() == 0)
    }

    /// A state folder that already holds another token key (a daemon started there before, which made itself one)
    /// would refuse every copied session: the command says so and how to go on, before it copies a single row.
    @Test func anotherKeyWhereTheKeysGoStopsTheCopyBeforeItBegins() async throws {
        let sqlite = try await DaemonProcess(configuration: Self.configuration, store: .sqlite)
        let token = try await RPCConnection.withConnection(socketPath: sqlite.socketPath) { connection in
            try await connection.signUp(email: "alice@example.com", username: "alice")
        }
        #expect(sqlite.stop() == 0)
        let state = try TemporaryDirectory.make()
        let otherKey = Data(repeating: 7, count: 32)
        #expect(FileManager.default.createFile(atPath: state + "/token.key", contents: otherKey))
        let folder = try TemporaryDirectory.make()
        let url = try TestPostgres.database(for: folder)
        let refused = try runProduct(
            "twitterd", ["migrate-data", "--from", sqlite.databasePath, "--to", url, "--state-folder", state])
        #expect(refused.status == 1)
        #expect(refused.error.contains("\(state)/token.key holds another key than"), "\(refused.error)")
        #expect(refused.error.contains("Nothing was copied"), "\(refused.error)")
        #expect(FileManager.default.contents(atPath: state + "/token.key") == otherKey, "left alone")
        // Moved away as the message says, the same command carries the key and the session works.
        #expect(unlink(state + "/token.key") == 0)
        let copied = try runProduct(
            "twitterd", ["migrate-data", "--from", sqlite.databasePath, "--to", url, "--state-folder", state])
        #expect(copied.status == 0, "\(copied.error)")
        let postgres = try await DaemonProcess(
            directory: folder, configuration: Self.configuration, environment: ["STATE_DIRECTORY": state],
            store: .postgresql)
        try await RPCConnection.withConnection(socketPath: postgres.socketPath) { connection in
            let login = try await connection.logIn(token: token)
            #expect(login["user"]?["username"] == "alice")
        }
        #expect(postgres.stop() == 0)
    }

    /// Signs up boss, alice, bob and carol and has them do everything that leaves a row: posts with a mention
    /// and a tag, a reply, a repost, a like, a follow, a mute, a block, an API token, a report resolved by the
    /// admin and a tweet deleted by the admin. Returns the session tokens, alice's API token, every tweet id
    /// still served, and the deleted tweet's id (the highest given out).
    static func useEverything(on daemon: DaemonProcess) async throws -> (Sessions, String, [Int64], Int64) {
        var sessions: Sessions = [:]
        for name in ["boss", "alice", "bob", "carol"] {
            sessions[name] = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
                try await connection.signUp(email: "\(name)@example.com", username: name)
            }
        }
        try await daemon.grantAdmin(email: "boss@example.com", username: "boss")
        let tokens = sessions
        func call(_ name: String, _ method: String, _ params: JSONValue) async throws -> JSONValue {
            try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
                try await connection.logIn(token: tokens[name] ?? "")
                return try await connection.call(method, params)
            }
        }
        func id(_ answer: JSONValue) throws -> Int64 {
            guard case .number(let number)? = answer["id"], let id = number.int64 else {
                throw ClientError.invalidResponse("no id in \(answer)")
            }
            return id
        }
        let question = try id(try await call("alice", "tweets.post", ["text": "hello @bob, seen any #gardens?"]))
        // A line break and a backslash: the bytes COPY's text format escapes.
        let escaped = try id(
            try await call("alice", "tweets.post", ["text": "line one\nline two \\ C:\\path \\N café"]))
        let reply = try id(
            try await call(
                "bob", "tweets.post", ["text": "@alice yes, #gardens everywhere", "inReplyToId": Self.number(question)])
        )
        let repost = try id(try await call("bob", "tweets.repost", ["id": Self.number(question)]))
        // A quote: its quote_of and the question's quotes_count must come along.
        let quote = try id(
            try await call("bob", "tweets.post", ["text": "worth a read", "quoteOf": Self.number(question)]))
        _ = try await call("bob", "tweets.like", ["id": Self.number(question)])
        _ = try await call("bob", "users.follow", ["username": "alice"])
        _ = try await call("carol", "users.follow", ["username": "alice"])
        _ = try await call("alice", "users.mute", ["username": "carol"])
        // A private list (a boolean column, 1 in SQLite) with a member.
        let list = try await call("alice", "lists.create", ["name": "gardeners", "private": true])
        _ = try await call("alice", "lists.add", ["id": list["id"] ?? 0, "username": "bob"])
        _ = try await call("bob", "users.block", ["username": "carol"])
        let spam = try id(try await call("carol", "tweets.post", ["text": "buy cheap things"]))
        let report = try id(
            try await call("alice", "reports.create", ["tweetId": Self.number(spam), "reason": "spam"]))
        _ = try await call("boss", "admin.reports.resolve", ["id": Self.number(report), "note": "removed"])
        _ = try await call("boss", "admin.tweets.delete", ["id": Self.number(spam), "reason": "spam"])
        // Bob has read his notifications (a marker), and carol got a reset code from the admin.
        let bobs = try await call("bob", "notifications.list", [:])
        _ = try await call("bob", "notifications.markRead", ["upToId": bobs["newestId"] ?? 0])
        _ = try await call("boss", "admin.users.resetPassword", ["username": "carol"])
        let created = try await call("alice", "tokens.create", ["name": "ci", "password": "correct horse battery"])
        guard case .string(let apiToken)? = created["token"] else { throw ClientError.invalidResponse("\(created)") }
        return (sessions, apiToken, [question, reply, repost, escaped, quote], spam)
    }

    static func number(_ id: Int64) -> JSONValue { .number(JSONNumber(Int(id))) }

    /// Every read worth comparing, as each user makes it, keyed by `user method params`.
    static func answers(on daemon: DaemonProcess, sessions: Sessions, tweetIDs: [Int64]) async throws
        -> [String: JSONValue]
    {
        let question = Self.number(tweetIDs[0])
        let calls: [(String, String, JSONValue)] = [
            ("alice", "users.get", ["username": "bob"]),
            ("alice", "timeline.home", [:]),
            ("alice", "timeline.public", [:]),
            ("alice", "timeline.user", ["username": "bob"]),
            ("alice", "tweets.thread", ["id": question]),
            ("alice", "tweets.get", ["id": question]),
            ("alice", "tweets.likedBy", ["id": question]),
            ("alice", "tweets.quotes", ["id": question]),
            ("alice", "tags.tweets", ["tag": "gardens"]),
            ("alice", "search.tweets", ["query": "gardens"]),
            ("alice", "users.followers", ["username": "alice"]),
            ("alice", "users.muted", [:]),
            ("alice", "notifications.list", [:]),
            ("alice", "notifications.unreadCount", [:]),
            ("alice", "lists.mine", [:]),
            ("alice", "lists.members", ["id": 1]),
            ("alice", "timeline.list", ["id": 1]),
            ("bob", "notifications.list", [:]),
            ("bob", "users.blocked", [:]),
            ("bob", "users.following", ["username": "bob"]),
            ("carol", "timeline.home", [:]),
            ("boss", "notifications.list", [:]),
            ("boss", "admin.reports.list", [:]),
            ("boss", "admin.audit.list", [:]),
            ("boss", "admin.users.list", [:]),
        ]
        var answers: [String: JSONValue] = [:]
        for (name, method, params) in calls {
            answers["\(name) \(method) \(params)"] = try await RPCConnection.withConnection(
                socketPath: daemon.socketPath
            ) { connection in
                try await connection.logIn(token: sessions[name] ?? "")
                return try await connection.call(method, params)
            }
        }
        return answers
    }
}
