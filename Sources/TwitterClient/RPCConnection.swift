import Glibc
import JSONRPC
import NIOCore
import NIOPosix

/// One connection to twitterd: calls (pipelined, answered by id) and the notifications the daemon pushes.
///
/// Open it with `withConnection`, which keeps the connection's reader inside a structured task and closes
/// everything when the body returns.
public struct RPCConnection: Sendable {
    private let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    private let pending: PendingCalls
    private let eventLoop: any EventLoop

    /// The daemon's notifications on this connection, in arrival order.
    public var notifications: AsyncStream<Notification> { pending.notifications }

    /// Connects to the socket at `path`, runs `body` with the connection, then closes it. Each line the daemon
    /// sends is read through `reading` first, when given: twctl shows the control characters of what it prints
    /// for people as visible ones there, once for every answer, error and notification.
    public static func withConnection<Result: Sendable>(
        socketPath path: String, reading: (@Sendable (JSONValue) -> JSONValue)? = nil,
        _ body: (RPCConnection) async throws -> Result
    ) async throws -> Result {
        let channel = try await connect(path: path)
        return try await channel.executeThenClose { inbound, outbound in
            let pending = PendingCalls()
            let connection = RPCConnection(outbound: outbound, pending: pending, eventLoop: channel.channel.eventLoop)
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    defer { pending.close() }
                    for try await line in inbound {
                        if let value = try? JSONParser(maximumDepth: 512).parse(Array(line.readableBytesView)) {
                            pending.receive(reading.map { $0(value) } ?? value)
                        }
                    }
                }
                defer { group.cancelAll() }
                return try await body(connection)
            }
        }
    }

    /// Calls `method` and returns its result, or throws `ClientError.remote` with the daemon's error.
    public func call(_ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
        let id = pending.makeID()
        var members: [String: JSONValue] = [
            "jsonrpc": "2.0", "method": .string(method), "id": .number(JSONNumber(id)),
        ]
        if let params { members["params"] = params }
        var bytes: [UInt8] = []
        JSONValue.object(members).write(into: &bytes)
        // The promise is registered before the request is written, so an answer can never arrive unclaimed.
        let promise = eventLoop.makePromise(of: JSONValue.self)
        pending.expect(id, promise)
        do {
            try await outbound.write(Self.line(bytes))
        } catch {
            pending.cancel(id, error: error)
        }
        return try await promise.futureResult.get()
    }

    /// Sends a notification: no answer comes back.
    public func notify(_ method: String, _ params: JSONValue? = nil) async throws {
        var members: [String: JSONValue] = ["jsonrpc": "2.0", "method": .string(method)]
        if let params { members["params"] = params }
        var bytes: [UInt8] = []
        JSONValue.object(members).write(into: &bytes)
        try await outbound.write(Self.line(bytes))
    }

    private static func line(_ bytes: [UInt8]) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeBytes(bytes)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }

    private static func connect(path: String) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        do {
            return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelOption(.allowRemoteHalfClosure, value: true)
                .connect(unixDomainSocketPath: path) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineDecoder()))
                        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch let error as IOError {
            throw ClientError.cannotConnect(path: path, errno: error.errnoCode, reason: Self.reason(error.errnoCode))
        } catch {
            throw ClientError.cannotConnect(path: path, errno: nil, reason: "\(error)")
        }
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES: "permission denied"
        case ECONNREFUSED: "connection refused"
        default: String(cString: strerror(code))
        }
    }
}
