import Foundation
import NIOCore
import TestSupport
import Testing
import TwitterClient

/// The configured numbers of event loops and hashing threads are the threads the daemon runs, and a PostgreSQL
/// database's pool adds its own loops.
struct ThreadCountTests {
    /// The names of the daemon's threads (`/proc/PID/task/*/comm`), by how many carry each prefix.
    static func threads(of pid: Int32, named prefix: String) throws -> Int {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        // A worker thread (libdispatch's) may end between the listing and the read: it counts as gone.
        return tasks.filter { task in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8))?.hasPrefix(prefix) == true
        }.count
    }

    @Test func theDaemonRunsTheConfiguredEventLoopsAndHashingThreads() async throws {
        for (loops, hashers) in [(3, 1), (1, 3)] {
            let daemon = try await DaemonProcess(
                configuration: "event_loops = \(loops)\n[auth]\nhashing_threads = \(hashers)\n")
            // Serving: the listener is bound, so the loops and the hashing pool have started.
            try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
                _ = try await connection.call("system.ping")
            }
            #expect(try Self.threads(of: daemon.processID, named: "NIO-SGLTN-") == loops)
            #expect(try Self.threads(of: daemon.processID, named: "argon2id-") == hashers)
        }
    }

    /// A PostgreSQL database's pool runs on loops of its own (`PostgresStore.loops`, one per core), beside the
    /// configured ones.
    @Test func aPostgreSQLDaemonsPoolRunsOnLoopsOfItsOwn() async throws {
        let daemon = try await DaemonProcess(configuration: "event_loops = 1\n", store: .postgresql)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            _ = try await connection.call("system.ping")
        }
        #expect(try Self.threads(of: daemon.processID, named: "NIO-SGLTN-") == 1)
        #expect(try Self.threads(of: daemon.processID, named: "NIO-ELT-") == System.coreCount)
    }
}
