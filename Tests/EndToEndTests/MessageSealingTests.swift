import Foundation
import GRDB
import JSONRPC
import Sodium
import TestSupport
import Testing
import TwitterClient

/// Messages are sealed at rest: whoever copies the database (its file, its WAL, a backup, a PostgreSQL dump)
/// reads neither a message nor any word of it, while the daemon, holding `messages.key`, shows them.
@Suite(.serialized) struct MessageSealingTests {
    /// Words no other row holds, so finding one anywhere means a message leaked.
    static let words = ["periwinkle", "marmalade", "zeppelin", "quokkas"]
    static var text: String { words.joined(separator: " ") }
    /// A tweet's word, which is stored in the clear: the search below must find it, or it finds nothing at all.
    static let tweetWord = "xylophonist"

    /// Signs up alice and bob (who takes messages from everyone), sends `text` both ways, posts a tweet with
    /// `tweetWord`, and checks that the daemon shows the message back.
    static func converse(socket: String) async throws {
        try await RPCConnection.withConnection(socketPath: socket) { bob in
            try await bob.signUp(email: "bob@example.com", username: "bob")
            _ = try await bob.call("profile.update", ["messagesFrom": "everyone"])
            try await RPCConnection.withConnection(socketPath: socket) { alice in
                try await alice.signUp(email: "alice@example.com", username: "alice")
                _ = try await alice.call("profile.update", ["messagesFrom": "everyone"])
                let sent = try await alice.call("messages.send", ["text": .string(text), "to": ["bob"]])
                _ = try await bob.call("messages.send", ["text": .string(text.uppercased()), "to": ["alice"]])
                _ = try await alice.call("tweets.post", ["text": .string("a tweet for the \(tweetWord)")])
                let listed = try await bob.call("messages.list", ["conversationId": sent["conversationId"] ?? .null])
                #expect(listed["messages"]?[1]?["text"] == .string(text), "the daemon opens what it sealed")
            }
        }
    }

    /// The words of `text` (either case) found in `bytes`.
    static func leaked(in bytes: Data) -> [String] {
        let haystack = String(decoding: bytes, as: UTF8.self).lowercased()
        return words.filter { haystack.contains($0) }
    }

    @Test func theSQLiteFileItsWALAndABackupHoldNoWordOfAMessage() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing, store: .sqlite)
        try await Self.converse(socket: daemon.socketPath)
        let backup = daemon.directory + "/copy.sqlite"
        let backedUp = try runProduct("twitterd", ["backup", "--database", daemon.databasePath, backup])
        #expect(backedUp.status == 0, "\(backedUp.error)")
        var tweetFound = false
        for path in [daemon.databasePath, daemon.databasePath + "-wal", backup] {
            let bytes = try #require(FileManager.default.contents(atPath: path), "\(path) is readable")
            #expect(Self.leaked(in: bytes) == [], "\(path) holds a message's words")
            tweetFound = tweetFound || String(decoding: bytes, as: UTF8.self).contains(Self.tweetWord)
        }
        #expect(tweetFound, "the search finds a word stored in the clear")
        let key = daemon.directory + "/messages.key"
        let attributes = try FileManager.default.attributesOfItem(atPath: key)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(
            FileManager.default.contents(atPath: backup + ".messages.key") == FileManager.default.contents(atPath: key))
        _ = daemon.stop()
    }

    @Test func aPostgreSQLDumpHoldsNoWordOfAMessage() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing, store: .postgresql)
        try await Self.converse(socket: daemon.socketPath)
        let url = try #require(daemon.databaseURL)
        let dump = try Self.pgDump(url)
        #expect(dump.contains(Self.tweetWord), "the dump holds the tweet: it is a dump of this database")
        #expect(Self.leaked(in: Data(dump.utf8)) == [], "the dump holds a message's words")
        _ = daemon.stop()
    }

    /// Runs `sql` on the daemon's database behind its back, as whoever can write the database file or tables.
    static func tamper(_ sql: String, on daemon: DaemonProcess) throws {
        if let url = daemon.databaseURL {
            try TestPostgres.runSQL(sql, in: url)
        } else {
            try DatabaseQueue(path: daemon.databasePath).write { try $0.execute(sql: sql) }
        }
    }

    /// The JSON-RPC error code of `call`, nil when it succeeded.
    static func code(_ call: () async throws -> JSONValue) async throws -> Int? {
        do {
            _ = try await call()
            return nil
        } catch ClientError.remote(let error) {
            return error.code
        }
    }

    @Test func aSealedTextCopiedIntoAnotherMessagesRowDoesNotOpenThere() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        for name in ["bob", "carol"] {
            try await SocialTests.as_(name, on: daemon, signUp: true) { connection in
                _ = try await connection.call("profile.update", ["messagesFrom": "everyone"])
            }
        }
        try await SocialTests.as_("alice", on: daemon, signUp: true) { alice in
            let secret = try await alice.call("messages.send", ["text": .string(Self.text), "to": ["bob"]])
            let decoy = try await alice.call("messages.send", ["text": "nothing to see", "to": ["bob"]])
            let elsewhere = try await alice.call("messages.send", ["text": "hello carol", "to": ["carol"]])
            let (secretID, decoyID, elsewhereID) = (
                try #require(secret["id"].flatMap(Int64.init(json:))), try #require(decoy["id"]),
                try #require(elsewhere["id"])
            )
            // The secret's sealed text, copied into a message of the same conversation and of another one.
            for target in [decoyID, elsewhereID].compactMap(Int64.init(json:)) {
                try Self.tamper(
                    "UPDATE messages SET sealed_text = (SELECT sealed_text FROM messages WHERE id = \(secretID)) "
                        + "WHERE id = \(target)", on: daemon)
            }
            for (conversation, moved) in [
                (secret["conversationId"], decoyID), (elsewhere["conversationId"], elsewhereID),
            ] {
                let listed = try await Self.code {
                    try await alice.call("messages.list", ["conversationId": conversation ?? .null])
                }
                #expect(listed == -32603, "message \(moved) does not open in a row it was not sealed for")
            }
            // The daemon keeps serving, the secret in its own row too.
            let before = try await alice.call(
                "messages.list", ["conversationId": secret["conversationId"] ?? .null, "maxId": decoyID])
            #expect(before["messages"]?[0]?["text"] == .string(Self.text))
            #expect(try await alice.call("auth.whoami")["user"]?["username"] == "alice")
        }
        // The log (of whichever daemon answered) says why.
        let logs = [daemon.logPath] + (daemon.partner.map { [$0.logPath] } ?? [])
        let log = logs.map { String(decoding: FileManager.default.contents(atPath: $0) ?? Data(), as: UTF8.self) }
        #expect(log.joined().contains("sealed for another message or conversation"))
        _ = daemon.stop()
    }

    /// The sealed text of every message, by id, read behind the daemon's back.
    static func sealedTexts(of daemon: DaemonProcess) throws -> [Int64: [UInt8]] {
        if let url = daemon.databaseURL {
            let lines = try TestPostgres.query(
                "SELECT id, encode(sealed_text, 'hex') FROM messages WHERE sealed_text IS NOT NULL", in: url)
            var texts: [Int64: [UInt8]] = [:]
            for line in lines {
                let fields = line.split(separator: "|")
                guard fields.count == 2, let id = Int64(fields[0]) else { continue }
                let hex = Array(fields[1].utf8)
                texts[id] = stride(from: 0, to: hex.count - 1, by: 2).compactMap {
                    UInt8(String(decoding: hex[$0...$0 + 1], as: UTF8.self), radix: 16)
                }
            }
            return texts
        }
        return try DatabaseQueue(path: daemon.databasePath).read { db in
            var texts: [Int64: [UInt8]] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, sealed_text FROM messages WHERE sealed_text IS NOT NULL") {
                texts[row["id"]] = Array(row["sealed_text"] as Data)
            }
            return texts
        }
    }

    /// `bytes` as a literal of the daemon's database.
    static func literal(_ bytes: [UInt8], for daemon: DaemonProcess) -> String {
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        return daemon.databaseURL == nil ? "X'\(hex)'" : "decode('\(hex)', 'hex')"
    }

    @Test func textsSealedBeforeTheyWereBoundAreSealedAgainForTheirRowsAtStart() async throws {
        let old = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        try await SocialTests.as_("bob", on: old, signUp: true) { bob in
            _ = try await bob.call("profile.update", ["messagesFrom": "everyone"])
        }
        var sent: [(id: Int64, conversation: JSONValue, text: String)] = []
        try await SocialTests.as_("alice", on: old, signUp: true) { alice in
            for text in ["first of old", "second of old", Self.text] {
                let message = try await alice.call("messages.send", ["text": .string(text), "to": ["bob"]])
                sent.append(
                    (try #require(message["id"].flatMap(Int64.init(json:))), message["conversationId"] ?? .null, text))
            }
        }
        #expect(old.stop() == 0)
        // Each text sealed as daemons before issue #48 sealed it: no marker, no associated data, so it opens anywhere.
        let key = try #require(FileManager.default.contents(atPath: old.directory + "/messages.key"))
        for message in sent {
            let legacy = Sodium.shared.seal(Array(message.text.utf8), key: Array(key))
            try Self.tamper(
                "UPDATE messages SET sealed_text = \(Self.literal(legacy, for: old)) WHERE id = \(message.id)", on: old)
        }
        let marker = Array("TWM1".utf8)
        #expect(try Self.sealedTexts(of: old).values.allSatisfy { !$0.starts(with: marker) })

        // The next start seals each of them again for its own row before it serves.
        let daemon = try await DaemonProcess(directory: old.directory, configuration: DaemonProcess.fastHashing)
        let logs = { ([daemon] + (daemon.partner.map { [$0] } ?? [])).map(\.log).joined() }
        #expect(logs().contains("message texts sealed for their rows resealed=3 skipped=0"))
        let resealed = try Self.sealedTexts(of: daemon)
        #expect(resealed.count == 3 && resealed.values.allSatisfy { $0.starts(with: marker) })
        try await SocialTests.as_("alice", on: daemon) { alice in
            let listed = try await alice.call("messages.list", ["conversationId": sent[0].conversation])
            #expect(listed["messages"]?[0]?["text"] == .string(Self.text), "each opens in its own row")
            #expect(listed["messages"]?[2]?["text"] == "first of old")
            // The secret, sealed again, copied into another row does not open there.
            try Self.tamper(
                "UPDATE messages SET sealed_text = (SELECT sealed_text FROM messages WHERE id = \(sent[2].id)) "
                    + "WHERE id = \(sent[0].id)", on: daemon)
            let moved = try await Self.code {
                try await alice.call("messages.list", ["conversationId": sent[0].conversation])
            }
            #expect(moved == -32603, "a re-sealed text does not open in a row it was not sealed for")
        }
        #expect(daemon.stop() == 0)
        // A second start finds nothing to do.
        let again = try await DaemonProcess(directory: old.directory, configuration: DaemonProcess.fastHashing)
        #expect(again.log.contains("message texts sealed for their rows resealed=0 skipped=0"))
        #expect(again.stop() == 0)
    }

    /// `pg_dump` of the database at `url`, by the server's own version of it.
    static func pgDump(_ url: String) throws -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let newest = versions.compactMap(Int.init).max().map { "/usr/lib/postgresql/\($0)/bin/pg_dump" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: newest ?? "/usr/bin/pg_dump")
        process.arguments = ["--dbname=" + url.replacingOccurrences(of: "postgres://", with: "postgresql://")]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw DumpFailed(status: process.terminationStatus) }
        return String(decoding: data, as: UTF8.self)
    }

    struct DumpFailed: Error {
        let status: Int32
    }
}
