import Foundation
import JSONRPC
import Logging
import MastodonAPI
import NIOCore
import NIOPosix
import ServiceLifecycle
import TwitterCore
import TwitterServer

/// The Mastodon client API over HTTP/1.1 as a `Service`: listens on `http.sock` and any loopback TCP addresses,
/// serves each connection on its event loop over the same request layer as JSON-RPC, and on graceful shutdown
/// stops accepting, lets the requests in flight finish and removes its socket files.
public struct HTTPServer: Service {
    let configuration: ServerConfiguration
    let settings: LiveSettings
    let statistics: ServerStatistics
    let listeners: [HTTPListener]
    let responder: HTTPResponder
    let logger: Logger
    private let onListening: @Sendable ([String]) -> Void
    let registry = ConnectionRegistry()
    let peerConnections = PeerConnectionCounts()

    /// Creates the server for `endpoints` on `listeners`; `onListening` gets the addresses served once they all
    /// accept connections.
    public init(
        configuration: ServerConfiguration, settings: LiveSettings, processor: RequestProcessor<RequestContext>,
        statistics: ServerStatistics, listeners: [HTTPListener], endpoints: [MastodonEndpoint], logger: Logger,
        onListening: @escaping @Sendable ([String]) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.settings = settings
        self.statistics = statistics
        self.listeners = listeners
        self.responder = HTTPResponder(
            endpoints: MastodonEndpointTable(endpoints), processor: processor,
            hostCheck: HostCheck(hosts: configuration.http.hosts))
        self.logger = logger
        self.onListening = onListening
    }

    /// Serves until graceful shutdown, then drains and returns.
    public func run() async throws {
        var bound: [any Channel] = []
        do {
            for listener in listeners { bound.append(try await bind(listener)) }
        } catch {
            for channel in bound { channel.close(promise: nil) }
            // A shutdown that came while the sockets were being bound is no failure: nothing was served yet.
            if Task.isCancelled || Task.isShuttingDownGracefully { return }
            throw error
        }
        let channels = bound
        let served = zip(listeners, channels).map { listener, channel in
            listener.served(by: channel)
        }
        logger.notice("serving the Mastodon API over HTTP", metadata: ["addresses": "\(served)"])
        onListening(served)
        try await withGracefulShutdownHandler {
            try await withTaskCancellationHandler {
                for channel in channels { try await channel.closeFuture.get() }
                await registry.waitUntilEmpty()
            } onCancel: {
                for channel in channels { channel.close(promise: nil) }
                registry.closeAll()
            }
        } onGracefulShutdown: {
            for channel in channels { channel.close(promise: nil) }
            registry.drainAll()
            let grace = TimeAmount(settings.limits.shutdownGracePeriod)
            channels.first?.eventLoop.scheduleTask(in: grace) { [registry] in registry.closeAll() }
        }
        for listener in listeners { if case .unix(let path) = listener { unlink(path) } }
    }

    /// Checks every socket path is free (or stale) before anything else is opened.
    public static func preflight(_ listeners: [HTTPListener]) throws {
        for case .unix(let path) in listeners { try SocketPathGuard.prepare(path: path) }
    }
}

extension HTTPServer: CustomStringConvertible {
    /// Short, for the service group's logs.
    public var description: String { "HTTPServer(\(listeners))" }
}

/// One place the HTTP transport listens.
public enum HTTPListener: Sendable, CustomStringConvertible {
    /// A Unix socket the daemon binds (and removes at exit).
    case unix(path: String)
    /// A loopback TCP address.
    case tcp(host: String, port: Int)
    /// A listening socket systemd passed (socket activation), never unlinked.
    case inherited(descriptor: Int32, name: String)

    /// The listeners of `addresses`, the first Unix one taken from systemd when it passed `inherited`.
    public static func from(_ addresses: [HTTPListenAddress], inherited: Int32?) -> [HTTPListener] {
        var inherited = inherited
        return addresses.map { address in
            switch address {
            case .unix(let path):
                if let descriptor = inherited {
                    inherited = nil
                    return .inherited(descriptor: descriptor, name: path)
                }
                return .unix(path: path)
            case .tcp(let host, let port): return .tcp(host: host, port: port)
            }
        }
    }

    /// The listener, for logs.
    public var description: String {
        switch self {
        case .unix(let path): "unix:\(path)"
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .inherited(let descriptor, let name): "inherited fd \(descriptor) (\(name))"
        }
    }

    /// What a client connects to: the URL of a TCP listener (its real port when 0 was asked), else the socket.
    func served(by channel: any Channel) -> String {
        guard case .tcp = self, let address = channel.localAddress, let port = address.port else {
            return description
        }
        let host = address.ipAddress ?? "127.0.0.1"
        return host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)"
    }
}
