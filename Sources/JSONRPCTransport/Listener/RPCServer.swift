import Foundation
import JSONRPC
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import TwitterCore
import TwitterServer

/// The listening side of the daemon as a `Service`: binds the Unix socket, serves each connection on its own
/// event loop, and on graceful shutdown stops accepting, drains connections and removes its socket file.
public struct RPCServer: Service {
    let configuration: ServerConfiguration
    let settings: LiveSettings
    let processor: RequestProcessor<RequestContext>
    let statistics: ServerStatistics
    let listener: ListenerSource
    let logger: Logger
    private let onListening: @Sendable () -> Void
    private let onShutdown: @Sendable () -> Void
    let registry = ConnectionRegistry()
    let peerConnections = PeerConnectionCounts()
    /// The idle checks of the event loops, one per loop for all its connections.
    let idleSweepers = IdleSweepers()

    var answerer: LineAnswerer { LineAnswerer(processor: processor, statistics: statistics) }

    /// Creates the server; `onListening` runs once the socket accepts connections, `onShutdown` when the
    /// graceful shutdown begins.
    public init(
        configuration: ServerConfiguration, settings: LiveSettings, processor: RequestProcessor<RequestContext>,
        statistics: ServerStatistics, listener: ListenerSource, logger: Logger,
        onListening: @escaping @Sendable () -> Void = {}, onShutdown: @escaping @Sendable () -> Void = {}
    ) {
        self.configuration = configuration
        self.settings = settings
        self.processor = processor
        self.statistics = statistics
        self.listener = listener
        self.logger = logger
        self.onListening = onListening
        self.onShutdown = onShutdown
    }

    /// Serves until graceful shutdown, then drains and returns.
    public func run() async throws {
        let serverChannel = try await bind()
        logger.notice("listening", metadata: ["socket": "\(listener.description)"])
        onListening()
        try await withGracefulShutdownHandler {
            try await withTaskCancellationHandler {
                try await serverChannel.closeFuture.get()
                // Connections live on their event loops, not in tasks of ours: wait until the drain ends them.
                await registry.waitUntilEmpty()
            } onCancel: {
                serverChannel.close(promise: nil)
                registry.closeAll()
            }
        } onGracefulShutdown: {
            beginShutdown(serverChannel)
        }
        if case .bind(let path) = listener { unlink(path) }
        logger.notice("stopped serving", metadata: ["requestsServed": "\(statistics.requestsServed)"])
    }

    private func beginShutdown(_ serverChannel: any Channel) {
        logger.notice("shutting down: no new connections, answering what was received")
        onShutdown()
        serverChannel.close(promise: nil)
        registry.drainAll()
        let grace = TimeAmount(settings.limits.shutdownGracePeriod)
        serverChannel.eventLoop.scheduleTask(in: grace) { [registry, logger] in
            logger.warning("grace period over; closing the remaining connections")
            registry.closeAll()
        }
    }
}

extension RPCServer: CustomStringConvertible {
    /// Short, for the service group's logs.
    public var description: String { "RPCServer(\(listener))" }

    /// Checks that the socket path is free (or stale) before anything else is opened, so a second daemon
    /// fails fast and touches nothing.
    public static func preflight(_ listener: ListenerSource) throws {
        if case .bind(let path) = listener { try SocketPathGuard.prepare(path: path) }
    }
}
