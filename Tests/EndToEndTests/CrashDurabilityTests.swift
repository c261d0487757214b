import Foundation
import JSONRPC
import Synchronization
import TestSupport
import Testing
import TwitterClient
import TwitterSQLite

/// 32 clients post; the daemon is killed with SIGKILL at a random moment and restarted; every post that was
/// answered must be there. On SQLite the kill waits until a checkpoint has begun copying the log into the
/// database file (off the writer's thread, `WALCheckpointer`), and the file's integrity check must pass.
/// SOAK_ROUNDS sets the rounds (make soak: 20).
@Suite(.serialized) struct CrashDurabilityTests {
    static var rounds: Int {
        ProcessInfo.processInfo.environment["SOAK_ROUNDS"].flatMap(Int.init) ?? 3
    }

    final class Acknowledged: Sendable {
        private let ids = Mutex<[Int64]>([])
        func add(_ id: Int64) { ids.withLock { $0.append(id) } }
        var all: [Int64] { ids.withLock { $0 } }
        var count: Int { ids.withLock { $0.count } }
    }

    @Test func everyAnsweredPostSurvivesSigkill() async throws {
        let directory = try TemporaryDirectory.make()
        var token = ""
        var expected: Set<Int64> = []
        for round in 1...Self.rounds {
            let daemon = try await DaemonProcess(
                directory: directory, configuration: DaemonProcess.fastHashing + DaemonProcess.unlimitedWrites)
            if token.isEmpty {
                token = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
                    try await connection.signUp(email: "crash@example.com")
                }
            }
            // Everything acknowledged in earlier rounds is still there after each restart.
            try await Self.expectAllPresent(expected, socket: daemon.socketPath, token: token)
            let acknowledged = Acknowledged()
            let sessionToken = token
            let killAfter = Int.random(in: 50...400)
            // In WAL mode only a checkpoint writes SQLite's database file, so the file growing is a checkpoint at
            // work. (On PostgreSQL the kill comes after the random count alone.)
            let file = directory + "/twitterd.sqlite"
            let sizeAtStart = Self.size(of: file)
            let awaitsCheckpoint = daemon.store == .sqlite
            let checkpointBegun: @Sendable () -> Bool = { !awaitsCheckpoint || Self.size(of: file) > sizeAtStart }
            // Kill at a random moment: after a random number of acknowledged posts and once a checkpoint has
            // begun, so mid-stream and during or after the round's first checkpoint.
            let checkpointed = await Self.postAndKill(
                daemon, token: sessionToken, text: "r\(round)", acknowledged: acknowledged,
                killWhen: { $0 >= killAfter && checkpointBegun() }, atKill: checkpointBegun)
            #expect(checkpointed, "a checkpoint wrote the database file before the kill")
            #expect(daemon.waitForExit() != 0)
            expected.formUnion(acknowledged.all)
            #expect(acknowledged.count >= killAfter)
        }
        if TestStore.ofThisRun == .sqlite {
            let database = try AppDatabase.open(path: directory + "/twitterd.sqlite")
            #expect(try await database.integrityCheck() == "ok")
            try database.close()
        }
        let daemon = try await DaemonProcess(
            directory: directory, configuration: DaemonProcess.fastHashing + DaemonProcess.unlimitedWrites)
        try await Self.expectAllPresent(expected, socket: daemon.socketPath, token: token)
        print("crash durability: \(Self.rounds) SIGKILL rounds, \(expected.count) acknowledged posts, all present")
    }

    /// 32 clients post as the session `token`, each its own numbered texts, adding every acknowledged id to
    /// `acknowledged`; once `killWhen` holds for the count acknowledged (or the clients stop: refused, or out of
    /// posts), the daemon gets SIGKILL. Returns what `atKill` said just before the kill.
    static func postAndKill<Value: Sendable>(
        _ daemon: DaemonProcess, token: String, text: String, acknowledged: Acknowledged,
        killWhen: @escaping @Sendable (Int) -> Bool, atKill: @escaping @Sendable () -> Value
    ) async -> Value {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        return await withTaskGroup(of: Void.self) { group in
            for client in 0..<32 {
                group.addTask {
                    try? await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
                        try await connection.logIn(token: token)
                        for index in 0..<10_000 {
                            let posted = try await connection.call(
                                "tweets.post", ["text": .string("\(text) c\(client) #\(index)")])
                            if case .number(let id)? = posted["id"], let value = id.int64 {
                                acknowledged.add(value)
                                if killWhen(acknowledged.count) { continuation.finish() }
                            }
                        }
                    }
                    // Out of posts, or refused: the caller's checks say which.
                    continuation.finish()
                }
            }
            for await _ in stream {}
            let value = atKill()
            daemon.send(SIGKILL)
            return value
        }
    }

    static func size(of file: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? Int ?? 0
    }

    static func expectAllPresent(_ expected: Set<Int64>, socket: String, token: String) async throws {
        guard !expected.isEmpty else { return }
        let present = try await RPCConnection.allTweetIDs(socket: socket, token: token)
        let missing = expected.subtracting(present)
        #expect(missing.isEmpty, "\(missing.count) acknowledged posts are missing")
    }
}
