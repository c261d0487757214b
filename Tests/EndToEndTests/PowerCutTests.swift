import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient
import TwitterStore

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
            let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
            await withTaskGroup(of: Void.self) { group in
                for client in 0..<32 {
                    group.addTask {
                        try? await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
                            try await connection.logIn(token: sessionToken)
                            for index in 0..<10_000 {
                                let posted = try await connection.call(
                                    "tweets.post", ["text": .string("cut r\(round) c\(client) #\(index)")])
                                if case .number(let id)? = posted["id"], let value = id.int64 {
                                    acknowledged.add(value)
                                    if acknowledged.count >= killAfter { continuation.finish() }
                                }
                            }
                        }
                        continuation.finish()
                    }
                }
                for await _ in stream {}
                daemon.send(SIGKILL)
            }
            #expect(daemon.waitForExit() != 0)
            #expect(acknowledged.count >= killAfter)
            expected.formUnion(acknowledged.all)
            if try Self.cutPower(database: database) { roundsThatLostWrites += 1 }
        }
        // The simulation cut something: with 32 clients posting, a kill lands between a write and its sync.
        #expect(roundsThatLostWrites > 0, "no round had unsynced writes to lose")
        let file = try AppDatabase.open(path: database)
        #expect(try await file.integrityCheck() == "ok")
        try file.close()
        let daemon = try await DaemonProcess(directory: directory, configuration: configuration)
        try await CrashDurabilityTests.expectAllPresent(expected, socket: daemon.socketPath, token: token)
    }

    /// The preload library keeps its copies as it says: a write synced is kept, one not synced is lost.
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
        #expect(try Self.cutPower(database: directory + "/data"))
        #expect(CrashDurabilityTests.size(of: directory + "/data-synced") == 12_288)
        #expect(CrashDurabilityTests.size(of: directory + "/data-unsynced") == 0)
    }

    /// Compiles drop_unsynced.c into `directory`; returns the library's path.
    static func buildLibrary(in directory: String) throws -> String {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PowerCut/drop_unsynced.c").path
        let library = directory + "/drop_unsynced.so"
        // The Swift toolchain brings clang; Debian's cc does as well.
        let compiler =
            ["/usr/bin/cc", "/usr/bin/clang"].first { FileManager.default.isExecutableFile(atPath: $0) }
            ?? "clang"
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
