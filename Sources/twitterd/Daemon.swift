import Foundation
import Logging
import ServiceLifecycle
import TokenLogin
import TwitterAssembly
import TwitterCore
import TwitterServer
import TwitterStore

/// The assembled daemon: opens the database, builds the request path, serves until a shutdown signal.
///
/// The services come from `ServiceAssembly`, the one place that names the store and every plugin.
struct Daemon {
    let configuration: ServerConfiguration
    /// Reads the configuration again (file, then flags), for SIGHUP.
    let reload: @Sendable () throws -> ServerConfiguration
    let logger: Logger

    func run() async throws {
        ResourceLimits.raiseOpenFileLimit(logger: logger)
        let environment = ProcessInfo.processInfo.environment
        let listener =
            SocketActivation.inheritedListener(environment: environment)
            ?? .bind(path: configuration.socketPath)
        // The folder before the socket's folder is made, so a folder they share is created private rather than
        // tightened later; the files only once no other daemon serves the socket, so a refused start touches none.
        var changes = try StateFolder.prepareFolder(databasePath: configuration.databasePath)
        try RPCServer.preflight(listener)
        changes += try StateFolder.prepare(databasePath: configuration.databasePath)
        for change in changes {
            logger.notice("state made private", metadata: ["change": "\(change)"])
        }
        // Before the database is opened, and held until the process ends: `twitterd restore` and `seed` refuse
        // while it is held, and a daemon never opens a database that a restore is halfway through replacing.
        let lock = try DatabaseLock(databasePath: configuration.databasePath)
        defer { withExtendedLifetime(lock) {} }
        let database = try AppDatabase.open(path: configuration.databasePath)
        defer {
            do { try database.close() } catch { logger.error("closing the database failed: \(error)") }
        }
        logger.info("database ready", metadata: ["path": "\(configuration.databasePath)"])
        let keyPath = StateFolder.tokenKeyPath(databasePath: configuration.databasePath)
        let services = try ServiceAssembly(
            database: database, configuration: configuration, tokenKey: try TokenKey.loadOrCreate(path: keyPath),
            logger: logger)
        // The rate buckets a previous run left, before the first write can take from them.
        try await services.tweets.rates.load()
        let statistics = ServerStatistics()
        let settings = LiveSettings(limits: configuration.limits)
        let processor = services.makeProcessor(statistics: statistics, settings: settings, logger: logger)
        let notifier = SystemdNotifier(environment: environment)
        let server = RPCServer(
            configuration: configuration, settings: settings, processor: processor, statistics: statistics,
            listener: listener, logger: logger,
            onListening: { notifier.ready(status: "serving on \(listener)") },
            onShutdown: { notifier.stopping() }
        )
        let reporter = HealthReporter(
            notifier: notifier, statistics: statistics, database: database, environment: environment, logger: logger
        )
        let reloader = ConfigurationReloader(
            load: reload, settings: settings, providers: services.auth.providers, notifier: notifier, logger: logger
        )
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                // Shut down in reverse: the server stops taking writes before the buckets are saved a last time.
                services: [
                    .init(service: RateBucketFlusher(limiter: services.tweets.rates, logger: logger)),
                    .init(service: server),
                    .init(service: reporter, successTerminationBehavior: .ignore),
                    .init(service: reloader, successTerminationBehavior: .ignore),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
            )
        )
        try await group.run()
    }
}
