import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import TwitterCore
import TwitterRuntime

/// Tells systemd how the daemon is: STATUS= with the connection count, and WATCHDOG=1 at half the watchdog
/// interval, but only while the daemon's own event loops and threads answer, so a wedged daemon is restarted.
///
/// A database server that does not answer (PostgreSQL stopped, restarting, or out of reach) is no wedged daemon:
/// restarting would not bring it back and would drop every connection, so the watchdog is fed and STATUS= says
/// "degraded" until the pool reconnects. Only a database run by the daemon's own threads (SQLite) that does not
/// answer withholds the watchdog, and one that can no longer make its writes durable (a failed sync of its log):
/// STATUS= then says "failed", and the restart replays the log from what is on disk.
public struct HealthReporter: Service {
    private let notifier: SystemdNotifier
    private let statistics: ServerStatistics
    private let database: any HealthChecking
    private let eventLoops: any EventLoopGroup
    private let watchdogInterval: Duration?
    private let logger: Logger

    /// Reads WATCHDOG_USEC (and WATCHDOG_PID) from `environment`; checks every loop of `eventLoops`.
    public init(
        notifier: SystemdNotifier, statistics: ServerStatistics, database: any HealthChecking,
        eventLoops: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, environment: [String: String],
        logger: Logger
    ) {
        self.notifier = notifier
        self.statistics = statistics
        self.database = database
        self.eventLoops = eventLoops
        self.logger = logger
        let pidMatches = environment["WATCHDOG_PID"].flatMap(Int32.init).map { $0 == getpid() } ?? true
        if pidMatches, let microseconds = environment["WATCHDOG_USEC"].flatMap(Int64.init), microseconds > 0 {
            watchdogInterval = .microseconds(microseconds / 2)
        } else {
            watchdogInterval = nil
        }
    }

    /// Reports until graceful shutdown; does nothing when not run by systemd.
    public func run() async throws {
        guard notifier.isEnabled else { return }
        let interval = watchdogInterval ?? .seconds(10)
        while !Task.isShuttingDownGracefully {
            // Waiting first keeps the first report after READY=1, which the server sends once it listens.
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
            let counts = "\(statistics.connections) connections, \(statistics.requestsServed) requests so far"
            // Half the interval at most, so a ping is never later than 1.5 intervals (3/4 of WatchdogSec).
            switch await health(within: interval / 2) {
            case .answering:
                report("serving \(counts)")
            case .degraded:
                logger.warning("the database does not answer; serving system.* and -32008 until it is back")
                report("degraded: the database does not answer; \(counts)")
            case .stuck:
                logger.error("event loops or the in-process database not answering; withholding the watchdog ping")
                notifier.status("not answering: event loops or database stuck")
            case .failed(let reason):
                logger.critical(
                    "the database can no longer make writes durable; withholding the watchdog ping so systemd restarts",
                    metadata: ["reason": "\(reason)"])
                notifier.status("failed: \(reason); restart to replay the log")
            }
        }
    }

    private func report(_ status: String) {
        if watchdogInterval == nil { notifier.status(status) } else { notifier.watchdog(status: status) }
    }

    /// What one check found.
    enum Health: Sendable, Equatable {
        /// Every event loop ran a task and the database answered a read.
        case answering
        /// The event loops answer; the database does not, and restarting the daemon would not change that.
        case degraded
        /// An event loop, or a database run by the daemon's own threads, did not answer: the watchdog restarts.
        case stuck
        /// The database can no longer make what it commits durable (`Durability.failed`): the watchdog restarts.
        case failed(reason: String)

        /// `system.health`'s `status` for it: what the watchdog would make of the daemon now.
        var status: String {
            switch self {
            case .answering: "ok"
            case .degraded, .stuck: "degraded"
            case .failed: "failed"
            }
        }
    }

    /// How the database answered one ping.
    enum DatabaseAnswer: Sendable, Equatable {
        case answered
        /// It said at once that it cannot be reached (-32008).
        case unreachable
        /// It failed otherwise.
        case failed
        /// It had not answered when the check's time was up.
        case silent
    }

    /// The verdict of one check: the event loops decide the watchdog; the database decides it only when it runs
    /// on the daemon's own threads.
    static func health(
        loopsAnswer: Bool, database: DatabaseAnswer, databaseInProcess: Bool, durability: Durability = .durable
    ) -> Health {
        if case .failed(let reason) = durability { return .failed(reason: reason) }
        guard loopsAnswer else { return .stuck }
        switch database {
        case .answered: return .answering
        case .unreachable: return .degraded
        case .failed, .silent: return databaseInProcess ? .stuck : .degraded
        }
    }

    /// Whether every event loop runs a task and how the database answers a read, both at once, each given at most
    /// `limit`.
    ///
    /// The two run as tasks of their own, not children of a task group: a group waits for its children, and a
    /// ping on a connection whose server vanished, or a task submitted to a wedged loop, may never end, which
    /// would hold the check, and with it every later watchdog ping, for good.
    private func health(within limit: Duration) async -> Health {
        let loops = OutcomeSlot<Bool>()
        let answer = OutcomeSlot<DatabaseAnswer>()
        let checks = [
            Task { [eventLoops] in
                for loop in eventLoops.makeIterator() {
                    guard (try? await loop.submit({}).get()) != nil else { return loops.fulfil(.success(false)) }
                }
                loops.fulfil(.success(true))
            },
            Task { [database] in
                do {
                    try await database.ping()
                    answer.fulfil(.success(.answered))
                } catch let error as TwitterError where error.kind == .unavailable {
                    answer.fulfil(.success(.unreachable))
                } catch {
                    answer.fulfil(.success(Task.isCancelled ? .silent : .failed))
                }
            },
            Task {
                try? await Task.sleep(for: limit)
                loops.fulfil(.success(false))
                answer.fulfil(.success(.silent))
            },
        ]
        let loopsAnswer = (try? await loops.value()) ?? false
        let databaseAnswer = (try? await answer.value()) ?? .silent
        for check in checks { check.cancel() }
        return Self.health(
            loopsAnswer: loopsAnswer, database: databaseAnswer, databaseInProcess: database.answersInProcess,
            durability: database.durability)
    }

    /// Whether `database` answers a read within `limit`; the read runs as a task of its own, so a read that never
    /// returns does not hold the caller past the limit.
    static func databaseAnswers(_ database: any HealthChecking, within limit: Duration) async -> Bool {
        let answered = OutcomeSlot<Bool>()
        let checks = [
            Task { answered.fulfil(.success((try? await database.ping()) != nil)) },
            Task {
                try? await Task.sleep(for: limit)
                answered.fulfil(.success(false))
            },
        ]
        let result = (try? await answered.value()) ?? false
        for check in checks { check.cancel() }
        return result
    }
}
