import Foundation
import GRDB
import JSONRPC
import Synchronization
import TestSupport
import Testing
import TwitterClient

/// `twitterd backup`, `restore` and `check`, run as an operator runs them, against real daemons.
@Suite(.serialized) struct BackupTests {
    /// What 32 posting clients were answered, split by when the request was sent relative to the backup.
    final class PostLog: Sendable {
        private struct State {
            var answered: Set<Int64> = []
            var sentAfterBackup: Set<Int64> = []
            var backupFinished = false
        }
        private let state = Mutex(State())
        private let threshold: Int
        private let reached: AsyncStream<Void>.Continuation
        /// Yields once `threshold` posts are answered; ends early when a client fails.
        let thresholdReached: AsyncStream<Void>

        init(threshold: Int) {
            self.threshold = threshold
            (thresholdReached, reached) = AsyncStream.makeStream(of: Void.self)
        }

        /// Whether a request sent now is sent after the backup command exited.
        var backupFinished: Bool { state.withLock { $0.backupFinished } }
        /// Every post answered so far.
        var answered: Set<Int64> { state.withLock { $0.answered } }
        /// The posts whose request was sent after the backup command exited.
        var sentAfterBackup: Set<Int64> { state.withLock { $0.sentAfterBackup } }

        func record(_ id: Int64, sentAfterBackup: Bool) {
            let count = state.withLock { state in
                state.answered.insert(id)
                if sentAfterBackup { state.sentAfterBackup.insert(id) }
                return state.answered.count
            }
            if count == threshold { reached.yield() }
        }

        func finishBackup() { state.withLock { $0.backupFinished = true } }
        func clientFailed() { reached.finish() }
    }

    /// Runs twitterd on a thread of its own: waiting for it must not take one of the two cooperative threads
    /// the 32 clients share.
    static func twitterdOffPool(_ arguments: [String]) async throws -> (status: Int32, output: String, error: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try runProduct("twitterd", arguments) }) }
        }
    }

    static func post(_ text: String, socket: String, token: String) async throws -> Int64 {
        try await RPCConnection.withConnection(socketPath: socket) { connection in
            try await connection.logIn(token: token)
            let posted = try await connection.call("tweets.post", ["text": .string(text)])
            guard case .number(let id)? = posted["id"], let value = id.int64 else {
                throw ClientError.invalidResponse("no id")
            }
            return value
        }
    }

    static func mode(_ path: String) -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        return status.st_mode & 0o7777
    }

    @Test func aBackupUnderThirtyTwoPostingClientsRestoresEveryPostAnsweredBeforeItStarted() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing + DaemonProcess.unlimitedWrites)
        let token = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.signUp(email: "backup@example.com")
        }
        let backup = daemon.directory + "/backup.sqlite"
        let log = PostLog(threshold: 320)
        var answeredBeforeStart: Set<Int64> = []
        var result: (status: Int32, output: String, error: String) = (-1, "", "")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<32 {
                group.addTask {
                    do {
                        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
                            try await connection.logIn(token: token)
                            // Each client goes on until three of its posts were sent after the backup ended.
                            var index = 0
                            var postsAfterBackup = 0
                            while postsAfterBackup < 3 {
                                let afterBackup = log.backupFinished
                                let posted = try await connection.call(
                                    "tweets.post", ["text": .string("c\(client) #\(index)")])
                                guard case .number(let id)? = posted["id"], let value = id.int64 else {
                                    throw ClientError.invalidResponse("no id in \(posted)")
                                }
                                log.record(value, sentAfterBackup: afterBackup)
                                index += 1
                                if afterBackup { postsAfterBackup += 1 }
                            }
                        }
                    } catch {
                        log.clientFailed()
                        throw error
                    }
                }
            }
            var iterator = log.thresholdReached.makeAsyncIterator()
            guard await iterator.next() != nil else {
                log.finishBackup()
                try await group.waitForAll()
                return
            }
            // Answered means committed: every post in this set was answered before the backup process existed.
            answeredBeforeStart = log.answered
            result = try await Self.twitterdOffPool(["backup", "--database", daemon.databasePath, backup])
            log.finishBackup()
            try await group.waitForAll()
        }
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("wrote \(backup): "))
        #expect(result.output.contains("wrote \(backup).token.key"))
        #expect(result.output.contains("integrity_check: ok"))
        #expect(Self.mode(backup) == 0o600)
        #expect(Self.mode(backup + ".token.key") == 0o600)
        #expect(Self.mode(backup + ".messages.key") == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: daemon.directory)
            .filter { $0.hasPrefix(".backup.sqlite") || $0.hasPrefix("backup.sqlite-") }
        #expect(leftovers.isEmpty, "temporary or journal files left beside the backup: \(leftovers)")
        #expect(answeredBeforeStart.count >= 320)
        #expect(daemon.stop() == 0)

        let fresh = try TemporaryDirectory.make()
        let restored = try runProduct("twitterd", ["restore", "--database", fresh + "/twitterd.sqlite", backup])
        #expect(restored.status == 0, "\(restored.error)")
        #expect(
            FileManager.default.contents(atPath: fresh + "/token.key")
                == FileManager.default.contents(atPath: daemon.directory + "/token.key"))
        // So did the messages key, without which no message in the backup could be opened.
        #expect(
            FileManager.default.contents(atPath: fresh + "/messages.key")
                == FileManager.default.contents(atPath: daemon.directory + "/messages.key"))
        let restarted = try await DaemonProcess(directory: fresh, configuration: DaemonProcess.fastHashing)
        // The session token still works: the key it is checked with came back with the database.
        let present = try await RPCConnection.allTweetIDs(socket: restarted.socketPath, token: token)
        let missing = answeredBeforeStart.subtracting(present)
        #expect(missing.isEmpty, "\(missing.count) posts answered before the backup started are missing")
        #expect(present.isSubset(of: log.answered), "the backup holds posts no client was answered")
        #expect(present.isDisjoint(with: log.sentAfterBackup), "the backup holds posts sent after it ended")
        #expect(log.sentAfterBackup.count == 96)
        #expect(result.output.contains("1 users, \(present.count) tweets"))
        print(
            "backup under load: \(answeredBeforeStart.count) posts answered before it started, \(present.count) in it, "
                + "\(log.answered.count) answered in all")
    }

    @Test func restoreAndSeedRefuseWhileADaemonServesAndRestoreSucceedsOnceItStops() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let token = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.signUp(email: "restore@example.com")
        }
        let kept = try await Self.post("before the backup", socket: daemon.socketPath, token: token)
        let backup = daemon.directory + "/backup.sqlite"
        let backedUp = try runProduct("twitterd", ["backup", "--database", daemon.databasePath, backup])
        #expect(backedUp.status == 0, "\(backedUp.error)")
        let undone = try await Self.post("after the backup", socket: daemon.socketPath, token: token)

        let refused = try runProduct(
            "twitterd", ["restore", "--force", "--database", daemon.databasePath, backup])
        #expect(refused.status == 75)
        #expect(refused.error.contains("twitterd (pid \(daemon.processID)) is serving \(daemon.databasePath)"))
        let config = daemon.directory + "/fast.toml"
        try DaemonProcess.fastHashing.write(toFile: config, atomically: true, encoding: .utf8)
        let seeded = try runProduct(
            "twitterd",
            ["seed", "--users", "1", "--tweets", "1", "--database", daemon.databasePath, "--config", config])
        #expect(seeded.status == 75)
        #expect(seeded.error.contains("process \(daemon.processID) holds"))
        #expect(seeded.error.contains("Run it while the daemon is stopped"))
        // Nothing changed under the daemon.
        #expect(try await RPCConnection.allTweetIDs(socket: daemon.socketPath, token: token) == [kept, undone])

        #expect(daemon.stop() == 0)
        let unforced = try runProduct("twitterd", ["restore", "--database", daemon.databasePath, backup])
        #expect(unforced.status == 1)
        #expect(unforced.error.contains("add --force"))
        let restored = try runProduct(
            "twitterd", ["restore", "--force", "--database", daemon.databasePath, backup])
        #expect(restored.status == 0, "\(restored.error)")
        #expect(restored.output.contains("restored \(backup) ("))
        #expect(Self.mode(daemon.databasePath) == 0o600)
        let restarted = try await DaemonProcess(directory: daemon.directory, configuration: DaemonProcess.fastHashing)
        #expect(try await RPCConnection.allTweetIDs(socket: restarted.socketPath, token: token) == [kept])
    }

    @Test func checkPassesASoundDatabaseWhileServingAndFailsBrokenReferencesAndPages() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let token = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.signUp(email: "check@example.com")
        }
        // Enough tweets for the table to span many pages, so one page can be broken alone.
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.logIn(token: token)
            for index in 0..<300 {
                _ = try await connection.call(
                    "tweets.post", ["text": .string("tweet \(index) " + String(repeating: "padding ", count: 12))])
            }
        }
        let sound = try runProduct("twitterd", ["check", "--database", daemon.databasePath])
        #expect(sound.status == 0, "\(sound.output) \(sound.error)")
        #expect(sound.output.contains("integrity_check: ok"))
        #expect(sound.output.contains("foreign_key_check: ok"))
        let backup = daemon.directory + "/sound.sqlite"
        #expect(try runProduct("twitterd", ["backup", "--database", daemon.databasePath, backup]).status == 0)
        #expect(daemon.stop() == 0)

        // A tweet whose author does not exist, written the way only a bug or a hand edit could.
        var unchecked = Configuration()
        unchecked.foreignKeysEnabled = false
        let orphan: Int64 = try await DatabaseQueue(path: daemon.databasePath, configuration: unchecked).write { db in
            let id = try Int64.fetchOne(db, sql: "SELECT min(id) FROM tweets") ?? 0
            try db.execute(sql: "UPDATE tweets SET author_id = 424242 WHERE id = ?", arguments: [id])
            return id
        }
        let orphaned = try runProduct("twitterd", ["check", "--database", daemon.databasePath])
        #expect(orphaned.status == 1)
        #expect(orphaned.output.contains("integrity_check: ok"))
        #expect(orphaned.output.contains("foreign_key_check: 1 row with a missing parent"))
        #expect(orphaned.output.contains("row \(orphan) of tweets refers to a missing row of users"))
        #expect(orphaned.error.contains("has problems"))

        // A page of the tweet table overwritten with garbage, as a bad disk or a stray write would leave it.
        let (pageSize, page) = try await DatabaseQueue(path: backup).read { db in
            (
                try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096,
                try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'tweets'") ?? 0
            )
        }
        #expect(page > 1)
        let handle = try #require(FileHandle(forUpdatingAtPath: backup))
        try handle.seek(toOffset: UInt64((page - 1) * pageSize))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
        try handle.close()
        let broken = try runProduct("twitterd", ["check", "--database", backup])
        #expect(broken.status == 1)
        #expect(broken.output.contains("integrity_check:"))
        #expect(!broken.output.contains("integrity_check: ok"))

        // Neither a restore nor a backup passes a broken file on.
        let fresh = try TemporaryDirectory.make()
        let restore = try runProduct("twitterd", ["restore", "--database", fresh + "/twitterd.sqlite", backup])
        #expect(restore.status == 1)
        #expect(restore.error.contains("fails PRAGMA integrity_check"))
        #expect(!FileManager.default.fileExists(atPath: fresh + "/twitterd.sqlite"))
        let copy = try runProduct("twitterd", ["backup", "--database", backup, fresh + "/copy.sqlite"])
        #expect(copy.status == 1)
        #expect(copy.error.contains("fails PRAGMA integrity_check"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: fresh).isEmpty)
    }

    @Test func backupRefusesToOverwriteAndKeepsTheNewestDatedBackups() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        #expect(daemon.stop() == 0)
        let file = daemon.directory + "/one.sqlite"
        #expect(try runProduct("twitterd", ["backup", "--database", daemon.databasePath, file]).status == 0)
        let again = try runProduct("twitterd", ["backup", "--database", daemon.databasePath, file])
        #expect(again.status == 1)
        #expect(again.error.contains("\(file) exists; add --force"))
        let forced = try runProduct("twitterd", ["backup", "--force", "--database", daemon.databasePath, file])
        #expect(forced.status == 0, "\(forced.error)")
        let itself = try runProduct(
            "twitterd", ["backup", "--force", "--database", daemon.databasePath, daemon.databasePath])
        #expect(itself.status == 1)
        #expect(itself.error.contains("is the database itself"))

        let folder = daemon.directory + "/backups"
        var written: [String] = []
        for _ in 0..<3 {
            let result = try runProduct(
                "twitterd", ["backup", "--keep", "2", "--database", daemon.databasePath, folder])
            #expect(result.status == 0, "\(result.error)")
            written += result.output.split(separator: "\n").compactMap { line in
                line.hasPrefix("  wrote ") && !line.contains(".token.key") && !line.contains(".messages.key")
                    ? line.dropFirst("  wrote ".count).split(separator: ":").first.map(String.init) : nil
            }
        }
        #expect(written.count == 3)
        #expect(Self.mode(folder) == 0o700)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let newest = written.suffix(2).map { ($0 as NSString).lastPathComponent }
        // Each kept backup with both its keys: the token key and the messages key.
        #expect(
            names == newest.flatMap { [$0, $0 + ".messages.key", $0 + ".token.key"] })
    }
}
