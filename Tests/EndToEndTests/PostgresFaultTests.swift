import Foundation
import JSONRPC
import Synchronization
import TestSupport
import Testing
import TwitterClient

/// A daemon on PostgreSQL while the server dies and comes back: it keeps answering `system.*`, answers the
/// rest with -32008 and `retryAfter`, says `degraded`, reconnects by itself, and loses no answered post.
/// These tests kill the run's shared test cluster, so they run one at a time and start it again before they end.
@Suite(.serialized) struct PostgresFaultTests {
    @Test func whileTheServerIsDownTheDaemonAnswersSystemAndRetryAfterThenReconnects() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing, store: .postgresql)
        let token = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.signUp(email: "alice@example.com", username: "alice")
        }
        try TestPostgres.killServer()
        var restarted = false
        defer { if !restarted { try? TestPostgres.startServer() } }
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            #expect(try await connection.call("system.ping") == "pong")
            #expect(try await connection.call("system.health")["status"] == "degraded")
            #expect(try await connection.call("system.version")["store"] == "postgresql")
            let refused = try await connection.callError(
                "auth.login", ["provider": "token", "credentials": ["token": .string(token)]])
            #expect(refused?.code == -32008)
            #expect(refused?.data["retryAfter"] == 1)
        }
        #expect(daemon.isRunning)
        try TestPostgres.startServer()
        restarted = true
        // The pool reconnects on its own: the same daemon serves again.
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            let health = try await Self.eventually { try await connection.call("system.health")["status"] == "ok" }
            #expect(health)
            try await connection.logIn(token: token)
            let posted = try await connection.call("tweets.post", ["text": "back again"])
            #expect(posted["text"] == "back again")
        }
    }

    /// Before, a stopped server made the watchdog check time out waiting for a pooled connection: the daemon said
    /// "not answering: event loops or database stuck" and sent no WATCHDOG=1, and systemd would have restarted it
    /// in a loop for as long as the database was down. A server that does not answer is `degraded`; the event
    /// loops, which still answer, keep the watchdog fed, for longer than the watchdog interval.
    @Test func whileTheServerIsDownTheWatchdogIsFedAndTheStatusSaysDegraded() async throws {
        let daemon = try await DaemonProcess(
            configuration: DaemonProcess.fastHashing, environment: ["WATCHDOG_USEC": "1000000"], store: .postgresql)
        #expect(await daemon.notifications.waitFor("WATCHDOG=1", seconds: 30) != nil)
        try TestPostgres.killServer()
        var restarted = false
        defer { if !restarted { try? TestPostgres.startServer() } }
        // Every report from the kill on, until three degraded ones (1.5 s of watchdog interval, more than
        // WATCHDOG_USEC) have come: each must feed the watchdog.
        var reports: [String] = []
        var degraded = 0
        while degraded < 3, reports.count < 40, let report = await daemon.notifications.next() {
            reports.append(report)
            if report.contains("STATUS=degraded: the database does not answer") { degraded += 1 }
        }
        #expect(degraded == 3, "reports after the kill: \(reports)")
        #expect(reports.allSatisfy { $0.hasPrefix("WATCHDOG=1\n") }, "reports after the kill: \(reports)")
        #expect(daemon.isRunning)
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            let pong = try await connection.call("system.ping")
            let health = try await connection.call("system.health")
            #expect(pong == "pong")
            #expect(health["status"] == "degraded")
        }
        try TestPostgres.startServer()
        restarted = true
        var back = false
        for _ in 0..<60 {
            guard let report = await daemon.notifications.next() else { continue }
            if report.hasPrefix("WATCHDOG=1\nSTATUS=serving") {
                back = true
                break
            }
        }
        #expect(back, "the status says serving again once the server is back")
    }

    // This test found a hang in postgres-nio 1.33.2: a query sent just as its connection closed was dropped
    // unanswered, and the ordered write waiting on it held the daemon's write order for good (two runs in three).
    // `PostgresConnection.answers` sends every query from the connection's event loop, where that cannot happen.
    @Test func killingThePostmasterUnderThirtyTwoPostersLosesNoAnsweredPost() async throws {
        let daemon = try await DaemonProcess(
            configuration: DaemonProcess.fastHashing + DaemonProcess.unlimitedWrites, store: .postgresql)
        let token = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.signUp(email: "poster@example.com", username: "poster")
        }
        let answered = AnsweredPosts()
        let killAt = 300
        let stop = AnsweredPosts.Flag()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<32 {
                group.addTask {
                    try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
                        try await connection.logIn(token: token)
                        var index = 0
                        while !stop.isSet {
                            index += 1
                            do {
                                let result = try await connection.call(
                                    "tweets.post", ["text": .string("client \(client) post \(index)")])
                                if case .number(let id)? = result["id"], let value = id.int64 { answered.add(value) }
                            } catch ClientError.remote(let error) where error.code == -32008 {
                                // Refused while the server is down: not answered, so not counted.
                                try await Task.sleep(for: .milliseconds(50))
                            }
                        }
                    }
                }
            }
            group.addTask {
                // Kill once enough posts are answered; start again once posts were refused for a moment.
                try await Self.waitUntil { answered.count >= killAt }
                try TestPostgres.killServer()
                try await Task.sleep(for: .milliseconds(500))
                try TestPostgres.startServer()
                let resumedAt = answered.count
                try await Self.waitUntil { answered.count >= resumedAt + 300 }
                stop.set()
            }
            try await group.waitForAll()
        }
        let present = try await RPCConnection.allTweetIDs(socket: daemon.socketPath, token: token)
        let missing = answered.all.subtracting(present)
        #expect(missing.isEmpty, "answered but lost: \(missing.sorted().prefix(20))")
        #expect(answered.count >= 600)
    }

    /// Calls `check` until it holds, for at most 30 s; whether it came to hold.
    static func eventually(_ check: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if (try? await check()) == true { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    static func waitUntil(_ condition: @Sendable () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw TestPostgresError("the posters stalled") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// The ids of the posts the daemon answered, from every client.
final class AnsweredPosts: Sendable {
    private let ids = Mutex<Set<Int64>>([])

    func add(_ id: Int64) { ids.withLock { _ = $0.insert(id) } }
    var count: Int { ids.withLock { $0.count } }
    var all: Set<Int64> { ids.withLock { $0 } }

    /// A flag the posters stop at.
    final class Flag: Sendable {
        private let value = Mutex(false)
        func set() { value.withLock { $0 = true } }
        var isSet: Bool { value.withLock { $0 } }
    }
}
