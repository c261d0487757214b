import Foundation
import JSONRPC
import Synchronization
import TestSupport
import Testing
import TwitterClient
import TwitterStore

/// 32 clients post; the daemon is killed with SIGKILL at a random moment and restarted; every post that was
/// answered must be there, and SQLite's integrity check must pass. SOAK_ROUNDS sets the rounds (make soak: 20).
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
            let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
            await withTaskGroup(of: Void.self) { group in
                for client in 0..<32 {
                    group.addTask {
                        try? await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
                            try await connection.logIn(token: sessionToken)
                            for index in 0..<10_000 {
                                let posted = try await connection.call(
                                    "tweets.post", ["text": .string("r\(round) c\(client) #\(index)")])
                                if case .number(let id)? = posted["id"], let value = id.int64 {
                                    acknowledged.add(value)
                                    if acknowledged.count == killAfter { continuation.yield() }
                                }
                            }
                        }
                    }
                }
                // Kill at a random moment: after a random number of acknowledged posts, mid-stream.
                var iterator = stream.makeAsyncIterator()
                _ = await iterator.next()
                daemon.send(SIGKILL)
            }
            #expect(daemon.waitForExit() != 0)
            expected.formUnion(acknowledged.all)
            #expect(acknowledged.count >= killAfter)
        }
        let database = try AppDatabase.open(path: directory + "/twitterd.sqlite")
        #expect(try await database.integrityCheck() == "ok")
        try database.close()
        let daemon = try await DaemonProcess(
            directory: directory, configuration: DaemonProcess.fastHashing + DaemonProcess.unlimitedWrites)
        try await Self.expectAllPresent(expected, socket: daemon.socketPath, token: token)
        print("crash durability: \(Self.rounds) SIGKILL rounds, \(expected.count) acknowledged posts, all present")
    }

    static func expectAllPresent(_ expected: Set<Int64>, socket: String, token: String) async throws {
        guard !expected.isEmpty else { return }
        let present = try await RPCConnection.allTweetIDs(socket: socket, token: token)
        let missing = expected.subtracting(present)
        #expect(missing.isEmpty, "\(missing.count) acknowledged posts are missing")
    }
}
