import Foundation
import Logging
import PasswordLogin
import PeerLogin
import ServiceLifecycle
import Sodium
import TokenLogin
import TwitterCore
import TwitterServer
import TwitterStore

/// The assembled daemon: opens the database, builds the request path, serves until a shutdown signal.
///
/// This is the one place that names every plugin and method group.
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
        let database = try AppDatabase.open(path: configuration.databasePath)
        defer {
            do { try database.close() } catch { logger.error("closing the database failed: \(error)") }
        }
        logger.info("database ready", metadata: ["path": "\(configuration.databasePath)"])
        let auth = try makeAuthServices(database: database)
        let statistics = ServerStatistics()
        let hub = TweetHub()
        let tweets = TweetServices(
            store: TweetStore(database: database, hub: hub), hub: hub,
            text: TweetText(maximumLength: configuration.tweetMaximumLength)
        )
        let settings = LiveSettings(limits: configuration.limits)
        let processor = DaemonAssembly.makeProcessor(
            auth: auth, tweets: tweets, database: database, versions: Self.versions, statistics: statistics,
            settings: settings, logger: logger
        )
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
            load: reload, settings: settings, providers: auth.providers, notifier: notifier, logger: logger
        )
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [
                    .init(service: server),
                    .init(service: reporter, successTerminationBehavior: .ignore),
                    .init(service: reloader, successTerminationBehavior: .ignore),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
            )
        )
        try await group.run()
    }

    /// The versions of what the daemon runs on, as only main can name them.
    static let versions = ComponentVersions(libsodium: Sodium.shared.version, sqlite: AppDatabase.sqliteVersion)

    /// Registers every login provider plugin, then keeps the ones the configuration enables.
    private func makeAuthServices(database: AppDatabase) throws -> AuthServices {
        let settings = configuration.auth
        let users = UserStore(database: database)
        let keyPath = (configuration.databasePath as NSString).deletingLastPathComponent + "/token.key"
        let tokens = TokenService(
            store: TokenStore(database: database), key: try TokenKey.loadOrCreate(path: keyPath),
            sessionDays: settings.sessionDays
        )
        let cost = settings.passwordHashCost
        let hasher = try PasswordHasher(
            cost: cost, minimumLength: settings.passwordMinimumLength,
            threads: settings.hashingThreads, queueLimit: settings.hashingQueueLimit
        )
        let peerLinks = PeerLinkStore(database: database)

        var registry = LoginProviderRegistry()
        registry.register(PasswordLoginProvider(users: users, hasher: hasher))
        registry.register(TokenLoginProvider(service: tokens, users: users))
        registry.register(PeerLoginProvider(links: peerLinks))
        let selection: LoginProviderSelection
        do throws(TwitterError) {
            selection = try LoginProviderSelection(registered: registry, enabled: settings.providers)
        } catch {
            throw ConfigurationError(key: "auth.providers", problem: error.message)
        }
        logger.info(
            "login providers",
            metadata: [
                "enabled": "\(selection.enabled.names.joined(separator: ","))", "argon2id": "\(cost)",
            ]
        )
        return AuthServices(
            providers: selection, users: users, profiles: ProfileStore(database: database), sessions: tokens,
            tokens: tokens, passwords: hasher,
            peerLinks: peerLinks, throttle: LoginThrottle(store: ThrottleStore(database: database))
        )
    }
}
