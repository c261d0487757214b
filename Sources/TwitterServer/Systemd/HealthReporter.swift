import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import TwitterCore

/// Tells systemd how the daemon is: STATUS= with the connection count, and WATCHDOG=1 at half the watchdog
/// interval, but only while every event loop and the database answer, so a wedged daemon is restarted. A
/// database that says it is unreachable (a PostgreSQL server restarting) is no wedged daemon: restarting would
/// not help, so the watchdog is fed and STATUS= says "degraded" until the pool reconnects.
public struct HealthReporter: Service {
    private let notifier: SystemdNotifier
    private let statistics: ServerStatistics
    private let database: any HealthChecking
    private let watchdogInterval: Duration?
    private let logger: Logger

    /// Reads WATCHDOG_USEC (and WATCHDOG_PID) from `environment`.
    public init(
        notifier: SystemdNotifier, statistics: ServerStatistics, database: any HealthChecking,
        environment: [String: String],
        logger: Logger
    ) {
        self.notifier = notifier
        self.statistics = statistics
        self.database = database
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
            switch await health(within: interval) {
            case .answering:
                report("serving \(counts)")
            case .databaseUnreachable:
                logger.warning("the database does not answer; serving system.* and -32008 until it is back")
                report("degraded: the database does not answer; \(counts)")
            case .stuck:
                logger.error("event loops or database not answering; withholding the watchdog ping")
                notifier.status("not answering: event loops or database stuck")
            }
        }
    }

    private func report(_ status: String) {
        if watchdogInterval == nil { notifier.status(status) } else { notifier.watchdog(status: status) }
    }

    /// What one check found.
    enum Health: Sendable {
        /// Every event loop ran a task and the database answered a read.
        case answering
        /// The event loops answer; the database says at once that it cannot be reached (-32008).
        case databaseUnreachable
        /// An event loop or the database did not answer within the limit, or the database failed otherwise.
        case stuck
    }

    /// Whether every event loop runs a task and the database answers a read, each within `limit`.
    private func health(within limit: Duration) async -> Health {
        await withTaskGroup(of: Health.self) { group in
            group.addTask {
                for loop in MultiThreadedEventLoopGroup.singleton.makeIterator() {
                    guard (try? await loop.submit({}).get()) != nil else { return .stuck }
                }
                do {
                    try await database.ping()
                    return .answering
                } catch let error as TwitterError where error.kind == .unavailable {
                    return .databaseUnreachable
                } catch {
                    return .stuck
                }
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return .stuck
            }
            let first = await group.next() ?? .stuck
            group.cancelAll()
            return first
        }
    }
}
