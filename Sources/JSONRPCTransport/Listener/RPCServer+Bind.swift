import Foundation
import JSONRPC
import NIOCore
import NIOPosix
import TwitterAPI
import TwitterCore
import TwitterServer

extension RPCServer {
    /// Binds the configured socket (or adopts an inherited one) with the connection pipeline on every child.
    func bind() async throws -> any Channel {
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 4096)
            // Without it NIO closes the whole connection when a client shuts down its writing side (as socat
            // does after sending), and the answers to what it sent are lost.
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in accept(channel) }
        switch listener {
        case .bind(let path):
            try SocketPathGuard.prepare(path: path)
            let channel = try await withRestrictiveUmask {
                try await bootstrap.bind(unixDomainSocketPath: path).get()
            }
            guard chmod(path, mode_t(configuration.socketMode)) == 0 else {
                throw SocketPathGuard.Refusal(
                    description: "cannot set the mode of \(path): \(String(cString: strerror(errno)))")
            }
            return channel
        case .inherited(let descriptor, _):
            return try await bootstrap.withBoundSocket(descriptor).get()
        }
    }

    private func accept(_ channel: any Channel) -> EventLoopFuture<Void> {
        let limits = settings.limits
        guard statistics.acquireConnection(limit: limits.maximumConnections) else {
            logger.warning(
                "connection refused: at the connection limit", metadata: ["limit": "\(limits.maximumConnections)"])
            return refuse(
                channel,
                message:
                    "Too many connections: the daemon serves at most \(limits.maximumConnections); try again later",
                limit: limits.maximumConnections)
        }
        return channel.peerCredentials().flatMapThrowing { peer in
            // One local user may not take every connection; root is never refused, so it can always administer.
            guard peerConnections.acquire(uid: peer.userID, limit: limits.maximumConnectionsPerUID) else {
                let limit = limits.maximumConnectionsPerUID
                logger.warning(
                    "connection refused: at the per-user connection limit",
                    metadata: ["limit": "\(limit)", "uid": "\(peer.userID)"])
                let message =
                    "Too many connections from uid \(peer.userID): each local user may have at most \(limit) open; "
                    + "close one or try again later"
                try refuseNow(channel, message: message, limit: limit)
                // Given back only now: when the refusal cannot be set up, the error path below gives it back.
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
            statistics.releaseConnection()
            throw error
        }
    }

    /// Puts the connection pipeline on `channel` for `peer`; its slots are given back when it closes.
    private func serve(_ channel: any Channel, peer: PeerCredentials, limits: ServerConfiguration.Limits) throws {
        let session = ConnectionSession(id: registry.makeConnectionID(), peer: peer) { line in
            channel.eventLoop.execute { channel.writeAndFlush(ConnectionHandler.lineBuffer(line), promise: nil) }
        }
        let handler = ConnectionHandler(session: session, answerer: answerer, logger: logger) {
            [registry, statistics, peerConnections] in
            registry.remove(channel)
            statistics.releaseConnection()
            peerConnections.release(uid: peer.userID)
        }
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(LineFramingHandler(limits: limits, idleSweepers: idleSweepers))
        try pipeline.addHandler(handler)
        logger.debug("connection opened", metadata: ["connection": "\(session.id)", "peer": "\(peer)"])
        registry.add(channel)
    }

    /// Over a cap a connection gets one -32008 line, so the client knows why, and is closed.
    private func refuse(_ channel: any Channel, message: String, limit: Int) -> EventLoopFuture<Void> {
        channel.eventLoop.makeCompletedFuture { try refuseNow(channel, message: message, limit: limit) }
    }

    private func refuseNow(_ channel: any Channel, message: String, limit: Int) throws {
        var bytes: [UInt8] = []
        let error = RPCError(
            code: ErrorCodes.code(for: .unavailable), message: message, kind: "unavailable",
            ["limit": .number(JSONNumber(limit))])
        ResponseWriter.writeError(error, id: .null, into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        try channel.pipeline.syncOperations.addHandler(RejectionHandler(line: bytes))
    }

    /// The socket is created owner-only and then opened up to the configured mode, so there is no moment in
    /// which it is more open than configured.
    private func withRestrictiveUmask<T>(_ body: () async throws -> T) async rethrows -> T {
        let previous = umask(0o177)
        defer { umask(previous) }
        return try await body()
    }
}
