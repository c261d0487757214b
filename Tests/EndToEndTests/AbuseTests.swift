import Foundation
import JSONRPC
import TestSupport
import Testing
import TwitterClient

/// Load and abuse: many idle connections, slowloris, a client that never reads, brute force.
@Suite(.serialized) struct AbuseTests {
    @Test func tenThousandIdleConnectionsAreHeldAndOthersServed() async throws {
        let daemon = try await DaemonProcess(
            configuration: "[limits]\nmax_connections = 16384\n" + DaemonProcess.fastHashing)
        let result = try runProduct(
            "twbench",
            [
                "idle", "--socket", daemon.socketPath, "--connections", "10000", "--pid", "\(daemon.processID)",
                "--duration", "1", "--json",
            ]
        )
        #expect(result.status == 0, "\(result.error)")
        let figures = try JSONParser().parse(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
        // Reported, not asserted as time: the p99 of a ping client before and while 10,000 are held.
        print("10,000 idle connections: \(result.output)")
        #expect(figures["connections"] == 10000)
        guard case .number(let holding)? = figures["residentKiBHolding"], let kib = holding.int else {
            Issue.record("no memory figure")
            return
        }
        #expect(kib > 0)
        try HostileInputTests.assertServing(daemon)
    }

    @Test func slowlorisConnectionsAreClosedByThePartialLineTimeout() async throws {
        let daemon = try await DaemonProcess(
            configuration: "[limits]\npartial_line_timeout_seconds = 2\n" + DaemonProcess.fastHashing)
        var sockets = try (0..<500).map { _ in try RawSocket(path: daemon.socketPath, timeoutSeconds: 1) }
        let deadline = ContinuousClock.now + .seconds(60)
        var rounds = 0
        // A byte per connection per round, never a newline; the daemon must close every one of them.
        while !sockets.isEmpty && ContinuousClock.now < deadline {
            rounds += 1
            sockets = sockets.filter { socket in socket.send("{") && !socket.isClosedByPeer() }
            try HostileInputTests.assertServing(daemon)
            // The slow client's pace, not a wait for an outcome: five bytes a second per connection.
            usleep(200_000)
        }
        #expect(sockets.isEmpty, "\(sockets.count) slow connections still open after \(rounds) rounds")
        #expect(daemon.log.contains("an unfinished line waited too long"))
    }

    @Test func aClientThatNeverReadsDoesNotGrowTheDaemon() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        let before = try #require(ProcessMemory.residentKiB(daemon.processID))
        let socket = try RawSocket(path: daemon.socketPath)
        let request = Array(#"{"jsonrpc":"2.0","method":"system.ping","id":1}"#.utf8 + [10])
        let chunk = Array((0..<1000).map { _ in request }.joined())
        // A million requests, written without ever reading: writing must stall once the daemon stops reading.
        var written = 0
        var stalled = false
        for _ in 0..<1000 {
            guard socket.send(chunk, stallAfterSeconds: 3) else {
                stalled = true
                break
            }
            written += 1000
        }
        let during = try #require(ProcessMemory.residentKiB(daemon.processID))
        print(
            "backpressure: \(written) of 1,000,000 requests written before the daemon stopped reading; memory \(before) → \(during) KiB"
        )
        #expect(stalled, "the daemon read a million requests from a client that never read an answer")
        #expect(during - before < 64 * 1024)
        try HostileInputTests.assertServing(daemon)
    }

    @Test func aThousandAttemptBruteForceMeetsTheThrottle() async throws {
        let daemon = try await DaemonProcess(configuration: DaemonProcess.fastHashing)
        _ = try await RPCConnection.withConnection(socketPath: daemon.socketPath) { connection in
            try await connection.signUp(email: "victim@example.com")
        }
        var rejected = 0
        var throttled = 0
        let start = ContinuousClock.now
        try await RPCConnection.withConnection(socketPath: daemon.socketPath) { attacker in
            for guess in 0..<1000 {
                let error = try await attacker.callError(
                    "auth.login",
                    [
                        "provider": "password",
                        "credentials": ["email": "victim@example.com", "password": .string("guess-\(guess)")],
                    ]
                )
                switch error?.code {
                case -32002: rejected += 1
                case -32006: throttled += 1
                default: Issue.record("unexpected answer \(String(describing: error))")
                }
            }
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        // Five failures are free; after that the k-th further check waits 1 + 2 + … + 2^(k-1) = 2^k - 1 s.
        let allowed = 5 + Int(log2(seconds + 1))
        print("brute force: 1000 attempts in \(elapsed), \(rejected) checked and refused, \(throttled) throttled")
        #expect(rejected <= allowed, "only the first attempts reach the password check")
        #expect(rejected >= 5)
        #expect(rejected + throttled == 1000)
    }
}
