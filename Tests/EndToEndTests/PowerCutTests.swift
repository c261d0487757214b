import Foundation
import GRDB
import JSONRPC
import TestSupport
import Testing
import TwitterClient
import TwitterSQLite

/// A power cut, simulated: the daemon runs under Tests/PowerCut/drop_unsynced.so, which keeps beside each of the
/// database's files a copy holding only what a sync made durable. 32 clients post; the daemon is killed at a
/// random moment, each file is replaced by its synced copy (what a power cut leaves: every write since the last
/// sync gone), and every answered post must be there when the daemon starts again. A SIGKILL alone
/// (`CrashDurabilityTests`) keeps what the kernel holds unsynced; this is what proves that a post is answered only
/// once synced, which the post committer now does off the writer's thread (`WALSyncer`).
///
/// SQLite only: PostgreSQL's durability is its server's (synchronous_commit on), which no preload of the daemon
/// can cut.
@Suite(.serialized) struct PowerCutTests {
    static let rounds = 5

    @Test(.enabled(if: TestStore.ofThisRun == .sqlite, "the SQLite store's own files"))
    func everyAnsweredPostSurvivesLosingEveryUnsyncedWrite() async throws {
        let directory = try TemporaryDirectory.make()
        let database = directory + "/twitterd.sqlite"
        let library = try Self.buildLibrary(in: directory)
        let underPowerCut = ["LD_PRELOAD": library, "DROP_UNSYNCED_PREFIX": database]
        let configuration = DaemonProcess.fastHashing + DaemonProcess.unlimitedWrites
        var token = ""
        var expected: Set<Int64> = []
        var roundsThatLostWrites = 0
        var roundsThatLostCommittedPosts = 0
        for round in 1...Self.rounds {
            let daemon = try await DaemonProcess(
                directory: directory, configuration: configuration, environment: underPowerCut)
            if token.isEmpty {
                token = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
                    try await connection.signUp(email: "power@example.com")
                }
            }
            try await CrashDurabilityTests.expectAllPresent(expected, socket: daemon.socketPath, token: token)
            let acknowledged = CrashDurabilityTests.Acknowledged()
            let sessionToken = token
            let killAfter = Int.random(in: 300...1_500)
            // Killed while the log holds writes not yet synced, so that the cut has something to take.
            let log = database + "-wal"
            let unsynced: @Sendable () -> Bool = {
                CrashDurabilityTests.size(of: log) > CrashDurabilityTests.size(of: log + ".synced")
            }
            await CrashDurabilityTests.postAndKill(
                daemon, token: sessionToken, text: "cut r\(round)", acknowledged: acknowledged,
                killWhen: { $0 >= killAfter && unsynced() }, atKill: {})
            #expect(daemon.waitForExit() != 0)
            #expect(acknowledged.count >= killAfter)
            expected.formUnion(acknowledged.all)
            let newestBefore = try Self.newestTweet(inCopyOf: database, in: directory)
            if try Self.cutPower(database: database) { roundsThatLostWrites += 1 }
            let newestAfter = try Self.newestTweet(inCopyOf: database, in: directory)
            if newestAfter < newestBefore { roundsThatLostCommittedPosts += 1 }
        }
        // The cuts took what matters: posts committed and not yet synced (4 or 5 rounds of 5 in three runs here).
        #expect(roundsThatLostWrites > 0, "no round had unsynced writes to lose")
        #expect(roundsThatLostCommittedPosts > 0, "no kill landed between a batch's commit and its sync")
        let file = try AppDatabase.open(path: database)
        #expect(try await file.integrityCheck() == "ok")
        try file.close()
        let daemon = try await DaemonProcess(directory: directory, configuration: configuration)
        try await CrashDurabilityTests.expectAllPresent(expected, socket: daemon.socketPath, token: token)
    }

    /// The preload library keeps its copies as it says: a write synced is kept, one not synced is lost, a sync
    /// through another descriptor of the file counts (as the syncer's does), and so do pwrite and ftruncate.
    @Test func theSimulationKeepsSyncedWritesAndLosesTheRest() throws {
        let directory = try TemporaryDirectory.make()
        let library = try Self.buildLibrary(in: directory)
        let environment = ["LD_PRELOAD": library, "DROP_UNSYNCED_PREFIX": directory + "/data"]
        for (name, synced) in [("data-synced", true), ("data-unsynced", false)] {
            let status = try Self.run(
                "/bin/dd",
                ["if=/dev/zero", "of=\(directory)/\(name)", "bs=4096", "count=3"] + (synced ? ["conv=fsync"] : []),
                environment: environment)
            #expect(status == 0)
        }
        let appended = try Self.run(
            "/bin/sh", ["-c", "printf tail >> \(directory)/data-synced"], environment: environment)
        #expect(appended == 0)
        // As SQLite and the syncer write and sync: pwrite, ftruncate, and fdatasync through a read-only descriptor.
        let source = directory + "/log_writer.c"
        try Self.logWriter.write(toFile: source, atomically: true, encoding: .utf8)
        let program = directory + "/log_writer"
        #expect(try Self.run("/usr/bin/env", [Self.compiler, "-O1", "-o", program, source]) == 0)
        #expect(try Self.run(program, [directory + "/data-log"], environment: environment) == 0)
        #expect(try Self.cutPower(database: directory + "/data"))
        #expect(CrashDurabilityTests.size(of: directory + "/data-synced") == 12_288)
        #expect(CrashDurabilityTests.size(of: directory + "/data-unsynced") == 0)
        let log = try Data(contentsOf: URL(fileURLWithPath: directory + "/data-log"))
        #expect(String(decoding: log, as: UTF8.self) == "synced", "the tail written after the last sync is gone")
    }

    /// Writes "synced-and-more", cuts it to "synced", syncs through a read-only descriptor, then writes on.
    static let logWriter = """
        #include <fcntl.h>
        #include <unistd.h>
        int main(int count, char **arguments) {
            if (count != 2) return 64;
            int log = open(arguments[1], O_RDWR | O_CREAT, 0600);
            if (log < 0 || pwrite(log, "synced-and-more", 15, 0) != 15 || ftruncate(log, 6) != 0) return 1;
            int other = open(arguments[1], O_RDONLY);
            if (other < 0 || fdatasync(other) != 0) return 2;
            if (pwrite(log, " and lost", 9, 6) != 9) return 3;
            return 0;
        }

        """

    /// The newest tweet's id in a copy of the database's files as they are (recovering a copy leaves them alone).
    static func newestTweet(inCopyOf database: String, in directory: String) throws -> Int64 {
        let copy = directory + "/copy-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: database + suffix) {
            try FileManager.default.copyItem(atPath: database + suffix, toPath: copy + "/db.sqlite" + suffix)
        }
        let queue = try DatabaseQueue(path: copy + "/db.sqlite")
        defer { try? queue.close() }
        return try queue.read { db in try Int64.fetchOne(db, sql: "SELECT max(id) FROM tweets") } ?? 0
    }

    /// Debian's cc, else the clang the Swift toolchain brings.
    static let compiler =
        ["/usr/bin/cc", "/usr/bin/clang"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "clang"

    /// Compiles drop_unsynced.c into `directory`; returns the library's path.
    static func buildLibrary(in directory: String) throws -> String {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PowerCut/drop_unsynced.c").path
        let library = directory + "/drop_unsynced.so"
        let status = try run(
            "/usr/bin/env", [compiler, "-shared", "-fPIC", "-O1", "-o", library, source, "-ldl", "-lpthread"])
        try #require(status == 0, "drop_unsynced.c compiles")
        return library
    }

    /// What a power cut leaves: each file with a synced copy (its path beginning with `prefix`) becomes that copy,
    /// and SQLite's -shm goes as memory does. Returns whether any file lost writes.
    static func cutPower(database prefix: String) throws -> Bool {
        let folder = (prefix as NSString).deletingLastPathComponent
        let name = (prefix as NSString).lastPathComponent
        let files = FileManager.default
        var lost = false
        for entry in try files.contentsOfDirectory(atPath: folder) where entry.hasPrefix(name) {
            let path = folder + "/" + entry
            if entry.hasSuffix("-shm") {
                try files.removeItem(atPath: path)
            } else if entry.hasSuffix(".synced") {
                let original = String(path.dropLast(".synced".count))
                guard files.fileExists(atPath: original) else {
                    try files.removeItem(atPath: path)
                    continue
                }
                if files.contentsEqual(atPath: path, andPath: original) == false { lost = true }
                guard rename(path, original) == 0 else { throw CocoaError(.fileWriteUnknown) }
            }
        }
        return lost
    }

    /// Runs `executable` to its end; returns its exit status.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
