import Foundation
import HTTPTransport
import JSONRPCTransport
import Logging
import MastodonAPI
import ServiceLifecycle
import Synchronization
import TokenLogin
import TwitterAssembly
import TwitterCore
import TwitterServer

/// The assembled daemon: opens the database, builds the request path, serves until a shutdown signal.
///
/// The database (`OpenedDatabase`) and the services (`ServiceAssembly`) come from TwitterAssembly, the one place
/// that names the database driver and every plugin.
struct Daemon {
    let configuration: ServerConfiguration
    /// Reads the configuration again (file, then flags), for SIGHUP.
    let reload: @Sendable () throws -> ServerConfiguration
    let logger: Logger

    func run() async throws {
        configuration.sizeEventLoopGroup()
        ResourceLimits.raiseOpenFileLimit(logger: logger)
        let environment = ProcessInfo.processInfo.environment
        let inherited = SocketActivation.inheritedListeners(environment: environment)
        let listener = inherited.rpc ?? .bind(path: configuration.socketPath)
        let httpListeners = HTTPListener.from(
            configuration.http.addresses(socketPath: configuration.socketPath), inherited: inherited.http)
        // The folder before the socket's folder is made, so a folder they share is created private rather than
        // tightened later; the files only once no other daemon serves the socket, so a refused start touches none.
        for change in try StateFolder.prepareFolder(databasePath: configuration.databasePath) {
            logger.notice("state made private", metadata: ["change": "\(change)"])
        }
        try RPCServer.preflight(listener)
        try HTTPServer.preflight(httpListeners)
        let database = try await OpenedDatabase.open(configuration, logger: logger)
        do {
            try await serve(database, listener: listener, httpListeners: httpListeners, environment: environment)
        } catch {
            await database.close(logger: logger)
            throw error
        }
        await database.close(logger: logger)
    }

    private func serve(
        _ database: OpenedDatabase, listener: ListenerSource, httpListeners: [HTTPListener],
        environment: [String: String]
    ) async throws {
        let keyPath =
            configuration.database.tokenKeyFile ?? StateFolder.tokenKeyPath(databasePath: configuration.databasePath)
        let messagesKeyPath =
            configuration.database.messagesKeyFile
            ?? StateFolder.messagesKeyPath(databasePath: configuration.databasePath)
        // Every uid this daemon reads off a socket is one of this host's: the rows a uid names are keyed by both.
        var configuration = configuration
        let host = try HostIdentity.resolve(configured: configuration.database.hostID)
        configuration.database.hostID = host
        try await database.claimRowsWithoutHost(for: host)
        logger.info("host identity", metadata: ["host": "\(host)"])
        let services = try ServiceAssembly(
            database: database, host: host, configuration: configuration,
            tokenKey: try TokenKey.loadOrCreate(path: keyPath),
            messageKey: try MessageKey.loadOrCreate(path: messagesKeyPath), logger: logger)
        // The rate buckets a previous run left, before the first write can take from them.
        try await services.tweets.rates.load()
        try await services.auth.signups.load()
        // Texts sealed before they were bound to their rows, sealed again for them before anything is served:
        // from here on an unbound text does not open.
        let resealed = try await services.messages.rebindLegacyTexts()
        logger.info(
            "message texts sealed for their rows",
            metadata: ["resealed": "\(resealed.rebound)", "skipped": "\(resealed.skipped)"])
        if resealed.skipped > 0 {
            logger.warning(
                "message texts left unbound: they do not open under this messages key and will fail to open",
                metadata: ["count": "\(resealed.skipped)"])
        }
        let statistics = ServerStatistics()
        let settings = LiveSettings(limits: configuration.limits)
        let processor = services.makeProcessor(
            statistics: statistics, settings: settings, versions: await database.versions(), logger: logger)
        let notifier = SystemdNotifier(environment: environment)
        // READY=1 once both transports accept connections, so nothing started by it finds one not yet bound.
        let listening = ListeningCount(expected: 2)
        let transportListening: @Sendable () -> Void = { [logger] in
            guard listening.oneMore() else { return }
            notifier.ready(status: "serving on \(listener)")
            StartupPages.release(logger: logger)
        }
        let server = RPCServer(
            configuration: configuration, settings: settings, processor: processor, statistics: statistics,
            listener: listener, logger: logger, onListening: transportListening,
            onShutdown: { notifier.stopping() }
        )
        let http = HTTPServer(
            configuration: configuration, settings: settings, processor: processor, statistics: statistics,
            listeners: httpListeners, endpoints: MastodonRoutes.all, logger: logger
        ) { served in
            // Printed for `make run` and operators (before READY=1): where the Mastodon clients connect.
            for address in served where address.hasPrefix("http://") {
                FileHandle.standardError.write(Data("twitterd: Mastodon API at \(address)\n".utf8))
            }
            transportListening()
        }
        let reporter = HealthReporter(
            notifier: notifier, statistics: statistics, database: services.health, environment: environment,
            logger: logger
        )
        let reloader = ConfigurationReloader(
            load: reload, settings: settings, providers: services.auth.providers, notifier: notifier, logger: logger
        )
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                // Shut down in reverse: the server stops taking writes before the buckets are saved a last time.
                services: [
                    .init(
                        service: RateBucketFlusher(
                            limiters: [services.tweets.rates, services.auth.signups], logger: logger)),
                    .init(service: server),
                    .init(service: http),
                    .init(service: reporter, successTerminationBehavior: .ignore),
                    .init(service: reloader, successTerminationBehavior: .ignore),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
            )
        )
        try await group.run()
    }
}

/// Counts the transports that accept connections; the last one to start is told so.
private final class ListeningCount: Sendable {
    private let count = Mutex(0)
    let expected: Int

    init(expected: Int) {
        self.expected = expected
    }

    /// One more transport listens; true for the one that makes them all.
    func oneMore() -> Bool {
        count.withLock { count in
            count += 1
            return count == expected
        }
    }
}
