import MastodonAPI
import NIOCore
import NIOHTTP1
import TwitterServer

/// Server-sent events: once a stream's subscriptions are made, the response's head is written without a length
/// (chunked), and each notification line of the session's forwarders becomes `event: NAME\ndata: JSON\n\n`, LF
/// only, with a `:thump` comment as heartbeat. When a subscription ends (the subscriber lagged, the login was
/// revoked or expired) the response ends with its last chunk and the connection is closed, so the client
/// reconnects and fetches again.
extension HTTPConnectionHandler {
    /// How often an idle stream says it is alive.
    static let heartbeatInterval = TimeAmount.seconds(15)

    func startEvents(_ start: EventStreamStart, version: HTTPVersion, context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/event-stream")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "X-Accel-Buffering", value: "no")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: version, status: .ok, headers: headers))), promise: nil)
        context.writeAndFlush(
            wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: ":)\n")))), promise: nil)
        let channel = context.channel
        heartbeat = context.eventLoop.scheduleRepeatedTask(
            initialDelay: Self.heartbeatInterval, delay: Self.heartbeatInterval
        ) { _ in
            channel.writeAndFlush(
                HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(string: ":thump\n"))), promise: nil)
        }
        let forwarders = session.takeForwardersToStart()
        guard !forwarders.isEmpty else {
            endEvents(context: context)
            return
        }
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loopContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        let executor = taskExecutor(on: context.eventLoop)
        for forwarder in forwarders {
            Task(executorPreference: executor) { [session] in
                await forwarder.run { line in
                    switch MastodonStreamEvents.translate(
                        line: line, stream: start.stream, caller: start.caller, origin: start.origin)
                    {
                    case .ignored: return
                    case .lagged: throw CancellationError()
                    case .event(let event):
                        var frame: [UInt8] = []
                        frame.reserveCapacity(event.payload.count + event.event.utf8.count + 16)
                        frame += Array("event: \(event.event)\ndata: ".utf8)
                        frame += event.payload
                        frame += [10, 10]
                        try await channel.eventLoop.flatSubmit { () -> EventLoopFuture<Void> in
                            // Checked on the event loop: after a revocation, nothing more is written.
                            guard session.isServingSubscriptions else {
                                return channel.eventLoop.makeFailedFuture(CancellationError())
                            }
                            return channel.writeAndFlush(
                                HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(bytes: frame))))
                        }.get()
                    }
                }
                // One stream's subscription ended: the whole stream ends, and the connection with it.
                channel.eventLoop.execute { handler.value.endEvents(context: loopContext.value) }
            }
        }
    }

    /// Ends the stream cleanly, once: the heartbeat stops, the chunked body's last chunk (`0\r\n\r\n`) is
    /// written, then the connection closes. A client reads the end of a response, not a cut (Mastodon.py's stream
    /// then returns normally instead of reporting a network error).
    func endEvents(context: ChannelHandlerContext) {
        guard !eventsEnded else { return }
        eventsEnded = true
        heartbeat?.cancel()
        heartbeat = nil
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
