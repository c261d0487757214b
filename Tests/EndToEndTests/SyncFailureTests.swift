import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// A failed sync of SQLite's write-ahead log once left the daemon answering -32603 to every post until someone
/// restarted it by hand, while `system.health` said "ok" and the watchdog was fed. It now says `failed` in
/// `system.health` and STATUS=, and stops sending WATCHDOG=1, so systemd restarts it and the log is replayed.
///
/// The daemon runs under Tests/PowerCut/fail_sync.so, which fails syncs of the log (EIO) once a flag file exists.
/// SQLite only: PostgreSQL's server stops itself after a failed fsync.
@Suite(.serialized) struct SyncFailureTests {
    /// Compiles fail_sync.c into `directory`; returns the library's path.
    static func buildLibrary(in directory: String) throws -> String {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PowerCut/fail_sync.c").path
        let library = directory + "/fail_sync.so"
        let status = try PowerCutTests.run(
            "/usr/bin/env", [PowerCutTests.compiler, "-shared", "-fPIC", "-O1", "-o", library, source, "-ldl"])
        try #require(status == 0, "fail_sync.c compiles")
        return library
    }

    @Test(.enabled(if: TestStore.ofThisRun == .sqlite, "the SQLite store's own log"))
    func aFailedSyncSaysFailedAndStopsTheWatchdog() async throws {
        let directory = try TemporaryDirectory.make()
        let flag = directory + "/fail-syncs"
        let daemon = try await DaemonProcess(
            directory: directory, configuration: DaemonProcess.fastHashing,
            environment: [
                "LD_PRELOAD": try Self.buildLibrary(in: directory), "FAIL_SYNC_FLAG": flag,
                "WATCHDOG_USEC": "1000000",
            ])
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { poster in
            try await poster.signUp(email: "poster@example.com")
            _ = try await poster.call("tweets.post", ["text": "synced"])
            #expect(try await poster.call("system.health")["status"] == "ok")
            let fed = await daemon.notifications.waitFor("WATCHDOG=1", seconds: 30)
            #expect(fed != nil, "the watchdog is fed while syncs succeed")

            // The disk stops writing the log's pages.
            _ = FileManager.default.createFile(atPath: flag, contents: nil)
            let refused = try await poster.callError("tweets.post", ["text": "not durable"])
            #expect(refused?.code == -32603, "\(String(describing: refused))")
            #expect(try await poster.call("system.health")["status"] == "failed")
        }

        // From the first report that says so, STATUS= says failed, and no WATCHDOG=1 comes again: three more
        // reports (one every half second) are waited for, each without it.
        var reports: [String] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while !(reports.last?.contains("STATUS=failed") ?? false), ContinuousClock.now < deadline {
            if let report = await daemon.notifications.next() { reports.append(report) }
        }
        let failedAt = try #require(reports.lastIndex { $0.contains("STATUS=failed") }, "\(reports)")
        #expect(reports[failedAt].contains("write-ahead log"), "\(reports[failedAt])")
        while reports.count < failedAt + 4, let report = await daemon.notifications.next() {
            reports.append(report)
        }
        let after = reports[failedAt...]
        #expect(after.count == 4, "\(reports)")
        for report in after {
            #expect(!report.contains("WATCHDOG=1"), "\(report)")
            #expect(report.hasPrefix("STATUS=failed: "), "\(report)")
        }
    }
}
