import EventLoopExecutor
import JSONRPC
import MastodonAPI
import NIOCore
import NIOWebSocket
import TwitterAPI
import TwitterServer

/// Mastodon's streaming WebSocket (`/api/v1/streaming`): the connection's HTTP handler hands its session over
/// at the upgrade; the token (the `Authorization` header or `access_token`) logs it in through the layer, and
/// `{"type":"subscribe","stream":"user"}` / `unsubscribe` messages start and end the layer's subscriptions.
/// Each event is a text frame `{"stream":[...],"event":"update","payload":"<JSON as a string>"}`. A subscription
/// that ends by itself (the subscriber lagged, the login was revoked or expired) closes the WebSocket, so the
/// client reconnects and fetches again.
final class WebSocketStreamHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// What the HTTP handler hands over.
    struct Handover {
        let session: ConnectionSession
        let bearer: BearerLogin
        let processor: RequestProcessor<RequestContext>
        let token: String?
        let initialStream: MastodonStream?
        let origin: String
        /// Whether the `Host` passed the check; if not, the socket is refused (421) and closed.
        let hostAllowed: Bool
        let onClosed: () -> Void
    }

    private let handover: Handover
    private var executor: EventLoopTaskExecutor?
    /// The streams by the layer's subscription ids; an id taken out was unsubscribed.
    private var streams: [Int: MastodonStream] = [:]
    /// Messages are handled one after another, in arrival order.
    private var last: Task<Void, Never>?
    private var caller: String?
    private var fragments: ByteBuffer?
    private var heartbeat: RepeatedTask?
    private var ended = false

    init(_ handover: Handover) {
        self.handover = handover
    }

    private var session: ConnectionSession { handover.session }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        heartbeat = context.eventLoop.scheduleRepeatedTask(
            initialDelay: HTTPConnectionHandler.heartbeatInterval, delay: HTTPConnectionHandler.heartbeatInterval
        ) { _ in
            channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .ping, data: channel.allocator.buffer(capacity: 0)))
                .whenComplete { _ in }
        }
        let (bearer, session, processor) = (handover.bearer, handover.session, handover.processor)
        let (token, initial, hostAllowed) = (handover.token, handover.initialStream, handover.hostAllowed)
        enqueue(context: context) { caller in
            guard hostAllowed else {
                return .refused(MastodonError(status: 421, "This daemon does not answer to that host: use localhost"))
            }
            do {
                try await bearer.authenticate(token, session: session, processor: processor)
                let whoami = try await caller.call(API.Auth.whoami)
                return .loggedIn(whoami.user.username, then: initial)
            } catch let error as MastodonError {
                return .refused(error)
            } catch let error as RPCError {
                return .refused(MastodonError(error))
            } catch {
                return .refused(MastodonError(status: 500, "Internal error"))
            }
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .connectionClose:
            var reply = frame.unmaskedData
            let code =
                reply.readSlice(length: min(2, reply.readableBytes)) ?? context.channel.allocator.buffer(capacity: 0)
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: code)))
                .whenComplete { _ in context.close(promise: nil) }
        case .ping:
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .text, .continuation:
            var data = frame.unmaskedData
            if fragments == nil { fragments = context.channel.allocator.buffer(capacity: data.readableBytes) }
            fragments?.writeBuffer(&data)
            guard frame.fin, let message = fragments else { return }
            fragments = nil
            guard message.readableBytes <= 64 * 1024 else { return close(context: context) }
            handle(Array(message.readableBytesView), context: context)
        default:
            return
        }
    }

    private enum Step: Sendable {
        case loggedIn(String, then: MastodonStream?)
        case refused(MastodonError)
        case subscribed(MastodonStream, [Int])
        case unsubscribe(MastodonStream)
        case none
    }

    private func handle(_ message: [UInt8], context: ChannelHandlerContext) {
        guard let json = try? JSONParser(maximumDepth: 8).parse(message), case .string(let type)? = json["type"],
            case .string(let name)? = json["stream"]
        else { return sendError("Unreadable message", status: 400, context: context) }
        let text = { (key: String) -> String? in
            if case .string(let value)? = json[key] { return value }
            if case .number(let value)? = json[key] { return value.text }
            return nil
        }
        // Refusals queue behind the messages before them, so a client reads its answers in the order it asked.
        guard let stream = MastodonStream(name: name, tag: text("tag"), list: text("list")) else {
            return enqueue(context: context) { _ in .refused(MastodonError(status: 400, "Unknown stream \(name)")) }
        }
        switch type {
        case "subscribe":
            enqueue(context: context) { caller in
                do throws(RPCError) {
                    return .subscribed(stream, try await stream.subscribe(with: caller))
                } catch {
                    return .refused(MastodonError(error))
                }
            }
        case "unsubscribe":
            enqueue(context: context) { _ in .unsubscribe(stream) }
        default:
            enqueue(context: context) { _ in .refused(MastodonError(status: 400, "Unknown message type \(type)")) }
        }
    }

    /// Runs `work` after the messages before it, then carries out its step on the event loop.
    private func enqueue(
        context: ChannelHandlerContext,
        _ work: @escaping @Sendable (LayerCaller) async -> Step
    ) {
        let previous = last
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loopContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        let caller = LayerCaller(processor: handover.processor, context: RequestContext(session: session))
        last = Task(executorPreference: taskExecutor(on: eventLoop)) {
            await previous?.value
            let step = await work(caller)
            try? await eventLoop.submit { handler.value.carryOut(step, context: loopContext.value) }.get()
        }
    }

    private func carryOut(_ step: Step, context: ChannelHandlerContext) {
        guard !ended else { return }
        switch step {
        case .loggedIn(let name, let initial):
            caller = name
            if let initial {
                enqueue(context: context) { caller in
                    do throws(RPCError) {
                        return .subscribed(initial, try await initial.subscribe(with: caller))
                    } catch {
                        return .refused(MastodonError(error))
                    }
                }
            }
        case .refused(let error):
            sendError(error.message, status: error.status, context: context)
            if caller == nil { close(context: context) }
        case .subscribed(let stream, let ids):
            for id in ids { streams[id] = stream }
            for forwarder in session.takeForwardersToStart() { start(forwarder, context: context) }
        case .unsubscribe(let stream):
            for (id, subscribed) in streams where subscribed == stream {
                streams[id] = nil
                _ = session.cancelSubscription(id)
            }
        case .none:
            return
        }
    }

    private func start(_ forwarder: any StreamForwarding, context: ChannelHandlerContext) {
        guard let stream = streams[forwarder.id], let caller else { return }
        let channel = context.channel
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loopContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        let session = self.session
        let origin = handover.origin
        let id = forwarder.id
        Task(executorPreference: taskExecutor(on: context.eventLoop)) {
            await forwarder.run { line in
                switch MastodonStreamEvents.translate(line: line, stream: stream, caller: caller, origin: origin) {
                case .ignored: return
                case .lagged: throw CancellationError()
                case .event(let event):
                    let message = WebSocketStreamHandler.message(event, stream: stream)
                    try await channel.eventLoop.flatSubmit { () -> EventLoopFuture<Void> in
                        guard session.isServingSubscriptions else {
                            return channel.eventLoop.makeFailedFuture(CancellationError())
                        }
                        let frame = WebSocketFrame(
                            fin: true, opcode: .text, data: channel.allocator.buffer(bytes: message))
                        return channel.writeAndFlush(frame)
                    }.get()
                }
            }
            channel.eventLoop.execute { handler.value.subscriptionEnded(id, context: loopContext.value) }
        }
    }

    /// A subscription still listed ended by itself (lagged, revoked, expired): the WebSocket closes.
    private func subscriptionEnded(_ id: Int, context: ChannelHandlerContext) {
        guard streams.removeValue(forKey: id) != nil else { return }
        close(context: context)
    }

    /// `{"stream":[...],"event":"...","payload":"<JSON>"}`.
    static func message(_ event: MastodonStreamEvent, stream: MastodonStream) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(event.payload.count + event.payload.count / 8 + 64)
        bytes += Array(#"{"stream":["#.utf8)
        for (index, name) in stream.names.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONValue.writeString(name, into: &bytes)
        }
        bytes += Array(#"],"event":"#.utf8)
        JSONValue.writeString(event.event, into: &bytes)
        bytes += Array(#","payload":"#.utf8)
        JSONValue.writeString(String(decoding: event.payload, as: UTF8.self), into: &bytes)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private func sendError(_ message: String, status: Int, context: ChannelHandlerContext) {
        var bytes = Array(#"{"error":"#.utf8)
        JSONValue.writeString(message, into: &bytes)
        bytes += Array(#","status":\#(status)}"#.utf8)
        let frame = WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(bytes: bytes))
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    private func close(context: ChannelHandlerContext) {
        var code = context.channel.allocator.buffer(capacity: 2)
        code.write(webSocketErrorCode: .normalClosure)
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: code)))
            .whenComplete { _ in context.close(promise: nil) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is DrainEvent { close(context: context) } else { context.fireUserInboundEventTriggered(event) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        connectionEnded()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        connectionEnded()
    }

    private func connectionEnded() {
        guard !ended else { return }
        ended = true
        heartbeat?.cancel()
        session.connectionClosed()
        handover.onClosed()
    }

    private func taskExecutor(on eventLoop: any EventLoop) -> EventLoopTaskExecutor {
        if let executor { return executor }
        let made = EventLoopTaskExecutor(eventLoop)
        executor = made
        return made
    }
}
