import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import TwitterCore
import TwitterServer

extension HTTPServer {
    /// The most bytes of all of a request's headers together, and of one of them.
    static let maximumHeaderBytes = 64 * 1024

    /// Binds `listener` with the HTTP pipeline on every connection.
    func bind(_ listener: HTTPListener) async throws -> any Channel {
        let isTCP = if case .tcp = listener { true } else { false }
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 4096)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: isTCP ? 1 : 0)
            .childChannelInitializer { channel in accept(channel, overTCP: isTCP) }
        switch listener {
        case .unix(let path):
            try SocketPathGuard.prepare(path: path)
            let previous = umask(0o177)
            defer { umask(previous) }
            let channel = try await bootstrap.bind(unixDomainSocketPath: path).get()
            guard chmod(path, mode_t(configuration.socketMode)) == 0 else {
                throw SocketPathGuard.Refusal(
                    description: "cannot set the mode of \(path): \(String(cString: strerror(errno)))")
            }
            return channel
        case .tcp(let host, let port):
            // `localhost` is bound as 127.0.0.1: a name could resolve elsewhere, the address cannot.
            let address = host.lowercased() == "localhost" ? "127.0.0.1" : host
            return try await bootstrap.bind(host: address, port: port).get()
        case .inherited(let descriptor, _):
            return try await bootstrap.withBoundSocket(descriptor).get()
        }
    }

    private func accept(_ channel: any Channel, overTCP: Bool) -> EventLoopFuture<Void> {
        let limits = settings.limits
        guard statistics.acquireConnection(limit: limits.maximumConnections) else {
            logger.warning("http connection refused: at the connection limit")
            return channel.close()
        }
        let peer: EventLoopFuture<PeerCredentials> =
            overTCP ? tcpPeer(channel) : channel.peerCredentials()
        return peer.flatMapThrowing { peer in
            guard peerConnections.acquire(uid: peer.userID, limit: limits.maximumConnectionsPerUID) else {
                logger.warning(
                    "http connection refused: at the per-user connection limit",
                    metadata: ["uid": "\(peer.userID)", "limit": "\(limits.maximumConnectionsPerUID)"])
                try refuse(channel, uid: peer.userID, limit: limits.maximumConnectionsPerUID)
                statistics.releaseConnection()
                return
            }
            do {
                try serve(channel, peer: peer, limits: limits)
            } catch {
                peerConnections.release(uid: peer.userID)
                throw error
            }
        }.flatMapErrorThrowing { error in
            logger.warning("http connection refused", metadata: ["error": "\(error)"])
            statistics.releaseConnection()
            throw error
        }
    }

    /// The uid owning the peer's socket, from the kernel's socket table: the peer is `remote`, talking to us at
    /// `local`.
    private func tcpPeer(_ channel: any Channel) -> EventLoopFuture<PeerCredentials> {
        channel.eventLoop.makeCompletedFuture {
            guard let remote = channel.remoteAddress, let local = channel.localAddress else {
                throw SocketDiagnostics.Failure(description: "a TCP connection without addresses")
            }
            let uid = try SocketDiagnostics.owner(source: remote, destination: local)
            // The kernel's socket table gives the uid only; no gid or pid is known over TCP.
            return PeerCredentials(userID: uid, groupID: UInt32.max, processID: 0)
        }
    }

    private func serve(_ channel: any Channel, peer: PeerCredentials, limits: ServerConfiguration.Limits) throws {
        let session = ConnectionSession(id: registry.makeConnectionID(), peer: peer)
        let handler = HTTPConnectionHandler(
            session: session, responder: responder, maximumBodyBytes: limits.maximumLineLength, logger: logger
        ) { [registry, statistics, peerConnections] in
            registry.remove(channel)
            statistics.releaseConnection()
            peerConnections.release(uid: peer.userID)
        }
        var decoderLimits = NIOHTTPDecoderLimitConfiguration()
        decoderLimits.maxHeaderFieldSize = Self.maximumHeaderBytes
        decoderLimits.maxHeaderListSize = Self.maximumHeaderBytes
        // NIO's server pipeline less its pipelining handler and header validator: HTTPConnectionHandler answers
        // pipelined requests one at a time itself and writes whole responses under the encoder
        // (`HTTPResponseBytes`, which validates their headers); the encoder frames only streams of events and the
        // WebSocket's upgrade. Malformed requests are answered by HTTPConnectionHandler, with `{"error": ...}`.
        let encoder = HTTPResponseEncoder(configuration: HTTPResponseEncoder.Configuration())
        let decoder = ByteToMessageHandler(
            HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes, limitConfiguration: decoderLimits))
        let upgrader = HTTPServerUpgradeHandler(
            upgraders: [webSocketUpgrader()], httpEncoder: encoder, extraHTTPHandlers: [decoder],
            upgradeCompletionHandler: { _ in })
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandlers(
            IdleStateHandler(allTimeout: TimeAmount(limits.idleTimeout)), encoder, decoder, upgrader, handler)
        logger.debug("http connection opened", metadata: ["connection": "\(session.id)", "peer": "\(peer)"])
        registry.add(channel)
    }

    /// The upgrade to Mastodon's streaming WebSocket at `/api/v1/streaming`; the connection's HTTP handler then
    /// hands its session to a `WebSocketStreamHandler`, which refuses a bad `Host` or token in its first message.
    private func webSocketUpgrader() -> NIOWebSocketServerUpgrader {
        NIOWebSocketServerUpgrader(
            maxFrameSize: 1 << 16, automaticErrorHandling: true,
            shouldUpgrade: { channel, head in
                let (path, _) = HTTPResponder.split(head.uri)
                let isStreaming = path.split(separator: "/") == ["api", "v1", "streaming"]
                return channel.eventLoop.makeSucceededFuture(isStreaming ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, head in
                let pipeline = channel.pipeline.syncOperations
                do {
                    let http = try pipeline.handler(type: HTTPConnectionHandler.self)
                    try pipeline.addHandler(WebSocketStreamHandler(http.handOver(head)))
                    return pipeline.removeHandler(http)
                } catch {
                    return channel.eventLoop.makeFailedFuture(error)
                }
            })
    }

    /// Over the per-uid cap a connection gets one 503 with `{"error": ...}`, then is closed.
    private func refuse(_ channel: any Channel, uid: UInt32, limit: Int) throws {
        let body =
            #"{"error":"Too many connections from uid \#(uid): each local user may have at most \#(limit) open"}"#
        let response =
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        try channel.pipeline.syncOperations.addHandler(RejectionHandler(line: Array(response.utf8)))
    }
}
