import Logging
import ServiceLifecycle
import TwitterCore
import UnixSignals

/// Re-reads the configuration on SIGHUP and applies what can change while running: the log level, the
/// limits and the enabled login providers. A bad file is logged and the old settings stay.
public struct ConfigurationReloader: Service {
    private let load: @Sendable () throws -> ServerConfiguration
    private let settings: LiveSettings
    private let providers: LoginProviderSelection
    private let notifier: SystemdNotifier
    private let logger: Logger

    /// Creates the reloader; `load` reads the file and applies the command line's flags over it.
    public init(
        load: @escaping @Sendable () throws -> ServerConfiguration, settings: LiveSettings,
        providers: LoginProviderSelection, notifier: SystemdNotifier, logger: Logger
    ) {
        self.load = load
        self.settings = settings
        self.providers = providers
        self.notifier = notifier
        self.logger = logger
    }

    /// Waits for SIGHUP until graceful shutdown.
    public func run() async throws {
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        for await _ in hangups.cancelOnGracefulShutdown() {
            reload()
        }
    }

    func reload() {
        notifier.send("RELOADING=1")
        defer { notifier.send("READY=1") }
        let next: ServerConfiguration
        do {
            next = try load()
            try providers.enable(next.auth.providers)
        } catch {
            logger.error("reload failed; keeping the old settings", metadata: ["error": "\(error)"])
            return
        }
        settings.update(limits: next.limits)
        StandardErrorLogHandler.sharedLevel.withLock { $0 = next.logLevel }
        logger.notice(
            "configuration reloaded",
            metadata: [
                "logLevel": "\(next.logLevel)", "providers": "\(providers.enabled.names.joined(separator: ","))",
            ]
        )
    }
}
