import Foundation
import Logging
import ServiceLifecycle
import TwitterServer
import TwitterStore

/// The assembled daemon: opens the database, builds the request path, serves until a shutdown signal.
///
/// This is the one place that names every plugin and method group.
struct Daemon {
    let configuration: ServerConfiguration
    let logger: Logger

    func run() async throws {
        ResourceLimits.raiseOpenFileLimit(logger: logger)
        let listener = ListenerSource.bind(path: configuration.socketPath)
        try RPCServer.preflight(listener)
        let database = try AppDatabase.open(path: configuration.databasePath)
        defer {
            do { try database.close() } catch { logger.error("closing the database failed: \(error)") }
        }
        logger.info("database ready", metadata: ["path": "\(configuration.databasePath)"])
        let statistics = ServerStatistics()
        let processor = DaemonAssembly.makeProcessor(
            groups: [], database: database, statistics: statistics, limits: configuration.limits, logger: logger
        )
        let notifier = SystemdNotifier(environment: ProcessInfo.processInfo.environment)
        let server = RPCServer(
            configuration: configuration, processor: processor, statistics: statistics,
            listener: listener, logger: logger,
            onListening: { notifier.ready(status: "serving on \(configuration.socketPath)") },
            onShutdown: { notifier.stopping() }
        )
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [.init(service: server)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
            )
        )
        try await group.run()
    }
}
