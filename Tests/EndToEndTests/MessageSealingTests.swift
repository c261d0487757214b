import Foundation
import JSONRPC
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
