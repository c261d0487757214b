import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import TwitterCore

/// Tells systemd how the daemon is: STATUS= with the connection count, and WATCHDOG=1 at half the watchdog
/// interval, but only while every event loop and the database answer, so a wedged daemon is restarted.
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
                try await cancelOnGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
            let healthy = await isHealthy(within: interval)
            let status = "serving \(statistics.connections) connections, \(statistics.requestsServed) requests so far"
            if healthy {
                if watchdogInterval == nil { notifier.status(status) } else { notifier.watchdog(status: status) }
            } else {
                logger.error("event loops or database not answering; withholding the watchdog ping")
                notifier.status("not answering: event loops or database stuck")
            }
        }
    }

    /// Every event loop runs a task and the database answers a read, each within `limit`.
    private func isHealthy(within limit: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for loop in MultiThreadedEventLoopGroup.singleton.makeIterator() {
                    guard (try? await loop.submit({}).get()) != nil else { return false }
                }
                return (try? await database.ping()) != nil
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
