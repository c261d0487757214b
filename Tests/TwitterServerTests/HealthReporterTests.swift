import Foundation
import Logging
import TestSupport
import Testing
import TwitterCore

@testable import TwitterServer

/// What the watchdog hears when the database does not answer: a database server's silence (PostgreSQL stopped)
/// makes the daemon degraded and the watchdog is still fed; only the daemon's own event loops and threads (an
/// in-process SQLite) withhold it. A datagram socket stands in for systemd, as NOTIFY_SOCKET names it.
@Suite(.serialized) struct HealthReporterTests {
    /// A database whose reads never come back, as a server that stopped answering, or SQLite's threads wedged.
    struct SilentDatabase: HealthChecking {
        let answersInProcess: Bool
        func ping() async throws { try await Task.sleep(for: .seconds(3600)) }
    }

    /// A database that refuses every read with an error other than "unreachable".
    struct FailingDatabase: HealthChecking {
        let answersInProcess: Bool
        func ping() async throws { throw TwitterError(.internal, "the server closed the connection") }
    }

    /// A database that answers.
    struct AnsweringDatabase: HealthChecking {
        var answersInProcess: Bool { false }
        func ping() async throws {}
    }

    /// A database that answers reads but whose log could not be synced: nothing it commits is known to be on disk.
    struct UnsyncedDatabase: HealthChecking {
        var answersInProcess: Bool { true }
        var durability: Durability { .failed(reason: "could not sync the database's write-ahead log: I/O error") }
        func ping() async throws {}
    }

    /// Runs a reporter with a 1 s watchdog over `database` until its third report, and returns the reports. (With
    /// 200 ms, the event loops had 50 ms to answer, which a loaded two-core machine sometimes missed.)
    static func reports(over database: any HealthChecking) async throws -> [String] {
        let directory = try TemporaryDirectory.make()
        let listener = try NotifyListener(path: directory + "/notify.sock")
        let reporter = HealthReporter(
            notifier: SystemdNotifier(environment: ["NOTIFY_SOCKET": listener.path]), statistics: ServerStatistics(),
            database: database, environment: ["WATCHDOG_USEC": "1000000"], logger: Logger(label: "test"))
        let running = Task { try await reporter.run() }
        defer { running.cancel() }
        var reports: [String] = []
        for _ in 0..<3 {
            guard let report = await listener.next() else { break }
            reports.append(report)
        }
        return reports
    }

    @Test(arguments: [false, true])
    func aDatabaseServerThatDoesNotAnswerIsDegradedAndTheWatchdogIsFed(fails: Bool) async throws {
        let database: any HealthChecking =
            fails ? FailingDatabase(answersInProcess: false) : SilentDatabase(answersInProcess: false)
        let reports = try await Self.reports(over: database)
        #expect(reports.count == 3)
        for report in reports {
            #expect(report.hasPrefix("WATCHDOG=1\nSTATUS=degraded: the database does not answer"), "\(report)")
        }
    }

    @Test func anInProcessDatabaseThatDoesNotAnswerWithholdsTheWatchdog() async throws {
        let reports = try await Self.reports(over: SilentDatabase(answersInProcess: true))
        #expect(reports.count == 3)
        for report in reports {
            #expect(report == "STATUS=not answering: event loops or database stuck")
        }
    }

    @Test func anAnsweringDatabaseIsServing() async throws {
        let reports = try await Self.reports(over: AnsweringDatabase())
        #expect(reports.count == 3)
        for report in reports {
            #expect(report.hasPrefix("WATCHDOG=1\nSTATUS=serving 0 connections"), "\(report)")
        }
    }

    /// A failed sync once left STATUS= "serving" and the watchdog fed: the daemon now says it failed and withholds
    /// the ping, so systemd restarts it and the log is replayed.
    @Test func aDatabaseThatCouldNotSyncIsFailedAndWithholdsTheWatchdog() async throws {
        let reports = try await Self.reports(over: UnsyncedDatabase())
        #expect(reports.count == 3)
        for report in reports {
            #expect(
                report == "STATUS=failed: could not sync the database's write-ahead log: I/O error; restart to replay "
                    + "the log", "\(report)")
        }
    }

    /// A failed sync decides whatever else answers, and `system.health` says so.
    @Test(arguments: [false, true])
    func aFailedSyncDecidesOverEverythingElse(inProcess: Bool) {
        let failed = Durability.failed(reason: "EIO")
        for answer in [HealthReporter.DatabaseAnswer.answered, .unreachable, .failed, .silent] {
            for loops in [false, true] {
                let health = HealthReporter.health(
                    loopsAnswer: loops, database: answer, databaseInProcess: inProcess, durability: failed)
                #expect(health == .failed(reason: "EIO"))
                #expect(health.status == "failed")
            }
        }
        #expect(HealthReporter.Health.answering.status == "ok")
        #expect(HealthReporter.Health.degraded.status == "degraded")
    }

    /// The first failure stays, and nothing brings a store back but a restart.
    @Test func durabilityOnceFailedStaysFailedWithTheFirstReason() {
        var durability = Durability.durable
        durability.syncFailed("first")
        durability.syncFailed("second")
        #expect(durability == .failed(reason: "first"))
    }

    @Test(arguments: [false, true])
    func theEventLoopsAloneDecideForADatabaseServer(inProcess: Bool) {
        for answer in [HealthReporter.DatabaseAnswer.unreachable, .failed, .silent] {
            let health = HealthReporter.health(loopsAnswer: true, database: answer, databaseInProcess: inProcess)
            #expect(health == (inProcess && answer != .unreachable ? .stuck : .degraded), "\(answer)")
            #expect(
                HealthReporter.health(loopsAnswer: false, database: answer, databaseInProcess: inProcess) == .stuck)
        }
        #expect(
            HealthReporter.health(loopsAnswer: true, database: .answered, databaseInProcess: inProcess) == .answering)
    }
}
