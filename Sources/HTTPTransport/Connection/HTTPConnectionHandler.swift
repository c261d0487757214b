import EventLoopExecutor
import Logging
import MastodonAPI
import NIOCore
import NIOHTTP1
import NIOWebSocket
import TwitterServer

/// Serves one HTTP connection: reads a request (head, body up to the limit, end), answers it in a task on the
/// connection's event loop, and writes the whole response at once (`HTTPResponseBytes`). Pipelined requests wait
/// their turn here, in order, and the connection is not read while any waits, so they are answered one at a time
/// and a client that pipelines cannot make the daemon hold more than one read of them.
///
/// Keep-alive unless the client or a drain says otherwise; an idle connection with nothing in flight is closed.
/// It never sets a cookie.
final class HTTPConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// A request read to its end, waiting for its answer.
    private struct ReadRequest {
        let head: HTTPRequestHead
        let body: [UInt8]
        let bodyTooLarge: Bool
    }

    let session: ConnectionSession
    private let responder: HTTPResponder
    private let bearer = BearerLogin()
    private let maximumBodyBytes: Int
    private let logger: Logger
    private let onClosed: () -> Void
    private var executor: EventLoopTaskExecutor?

    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var bodyTooLarge = false
    /// Pipelined requests read while another was answered, in order.
    private var waiting: [ReadRequest] = []
    /// Set when a read was asked for while requests waited: it is made once none waits.
    private var readHeld = false
    /// Where whole responses are written: under NIO's encoder, which they need not pass through.
    private var wire: ChannelHandlerContext?
    private var inFlight = false
    private var draining = false
    private var ended = false
    /// Set once the connection carries a stream of events.
    var streaming = false
    /// The heartbeat of a stream of events.
    var heartbeat: RepeatedTask?
    /// Set once the stream of events has written its end.
    var eventsEnded = false

    init(
        session: ConnectionSession, responder: HTTPResponder, maximumBodyBytes: Int, logger: Logger,
        onClosed: @escaping () -> Void
    ) {
        self.session = session
        self.responder = responder
        self.maximumBodyBytes = maximumBodyBytes
        self.logger = logger
        self.onClosed = onClosed
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
            body = []
            let declared = requestHead.headers.first(name: "content-length").flatMap { Int($0) } ?? 0
            bodyTooLarge = declared > maximumBodyBytes
        case .body(var buffer):
            guard !bodyTooLarge else { return }
            if body.count + buffer.readableBytes > maximumBodyBytes {
                bodyTooLarge = true
                body = []
            } else {
                body += buffer.readBytes(length: buffer.readableBytes) ?? []
            }
        case .end:
            guard let requestHead = head else { return }
            head = nil
            let request = ReadRequest(head: requestHead, body: body, bodyTooLarge: bodyTooLarge)
            body = []
            // A stream of events owns the connection: what the client sends after its request is not read.
            guard !streaming else { return }
            if inFlight || !waiting.isEmpty { waiting.append(request) } else { answer(request, context: context) }
        }
    }

    /// Reads on while no request waits; otherwise the read is held until the last waiting one is answered.
    func read(context: ChannelHandlerContext) {
        if waiting.isEmpty { context.read() } else { readHeld = true }
    }

    func handlerAdded(context: ChannelHandlerContext) {
        wire = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
    }

    /// Answers the next waiting request, if any, once the last answer is out: on the next turn of the loop, so
    /// that a long run of pipelined requests answered from memory does not nest one answer in another.
    private func answerNext(context: ChannelHandlerContext) {
        guard !waiting.isEmpty, !ended, !streaming else { return }
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loopContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.eventLoop.execute {
            let handler = handler.value
            guard !handler.inFlight, !handler.ended, !handler.waiting.isEmpty else { return }
            let next = handler.waiting.removeFirst()
            if handler.waiting.isEmpty, handler.readHeld {
                handler.readHeld = false
                loopContext.value.read()
            }
            handler.answer(next, context: loopContext.value)
        }
    }

    private func answer(_ read: ReadRequest, context: ChannelHandlerContext) {
        let requestHead = read.head
        let keepAlive = requestHead.isKeepAlive && !draining
        if read.bodyTooLarge {
            let refusal = MastodonError(
                status: 413, "The body is larger than the daemon takes (\(maximumBodyBytes) bytes)")
            write(refusal.response, version: requestHead.version, keepAlive: false, context: context)
            return
        }
        let headers = requestHead.headers
        let request = HTTPRequestInfo(
            method: requestHead.method.rawValue, uri: requestHead.uri, host: headers.first(name: "host"),
            authorization: headers.first(name: "authorization"), contentType: headers.first(name: "content-type"),
            idempotencyKey: headers.first(name: "idempotency-key"), body: read.body)
        // Each field line as sent, joined: cheaper than NIO's `canonicalForm`, which splits every value.
        let acceptEncoding = headers["accept-encoding"]
        let acceptsGzip = HTTPCompression.acceptsGzip(
            acceptEncoding.isEmpty ? nil : acceptEncoding.joined(separator: ","))
        inFlight = true
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loopContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        let executor = taskExecutor(on: eventLoop)
        // Started on the spot, on this event loop, as the JSON-RPC connection does: a request that never waits
        // (a page read from memory) is answered without a hop through the loop's queue.
        Task.immediate(executorPreference: executor) { [responder, session, bearer] in
            let answer = await responder.respond(to: request, session: session, bearer: bearer)
            let finish = {
                switch answer {
                case .response(let response):
                    handler.value.inFlight = false
                    handler.value.write(
                        HTTPCompression.applied(to: response, acceptsGzip: acceptsGzip), version: requestHead.version,
                        keepAlive: keepAlive && !handler.value.draining,
                        withBody: requestHead.method != .HEAD, context: loopContext.value)
                    handler.value.answerNext(context: loopContext.value)
                case .events(let start):
                    // The connection is the stream's from now on: it ends with it.
                    handler.value.streaming = true
                    handler.value.startEvents(start, version: requestHead.version, context: loopContext.value)
                }
            }
            if eventLoop.inEventLoop { finish() } else { eventLoop.execute(finish) }
        }
    }

    /// Writes `response` whole (`HTTPResponseBytes`) under the encoder, then closes the connection unless
    /// `keepAlive`. Without `withBody` (the answer to a `HEAD`), the head says what a `GET` would get, its
    /// `Content-Length` too, and no body follows. A header that is no valid field is never written: the answer
    /// is then a 500, and the connection closes.
    func write(
        _ response: MastodonResponse, version: HTTPVersion, keepAlive: Bool, withBody: Bool = true,
        context: ChannelHandlerContext
    ) {
        guard !ended else { return }
        let allocator = context.channel.allocator
        let encoded = HTTPResponseBytes.encoded(
            response, version: version, keepAlive: keepAlive, withBody: withBody, allocator: allocator)
        let bytes = encoded ?? allocator.buffer(string: Self.failure)
        let closes = !keepAlive || encoded == nil
        if encoded == nil {
            logger.error("a response header is not a valid field", metadata: ["status": "\(response.status)"])
        }
        // Under the encoder: the bytes are the wire's already. Without one in the pipeline, from here.
        let target = wire ?? context
        let written = target.writeAndFlush(NIOAny(IOData.byteBuffer(bytes)))
        if closes {
            let loopContext = NIOLoopBound(context, eventLoop: context.eventLoop)
            written.whenComplete { _ in loopContext.value.close(promise: nil) }
        }
    }

    /// The answer when a response could not be written as it was.
    private static let failure =
        "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json; charset=utf-8\r\n"
        + "Content-Length: 26\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n{\"error\":\"Internal error\"}"

    /// Gives the connection to the WebSocket the request `head` upgraded it to: this handler leaves the pipeline
    /// without ending the session, which the WebSocket's handler ends when the connection closes.
    func handOver(_ head: HTTPRequestHead) -> WebSocketStreamHandler.Handover {
        ended = true
        let (_, query) = HTTPResponder.split(head.uri)
        let params = (try? MastodonParams.decode(query: query, body: [], contentType: nil)) ?? MastodonParams()
        let header = try? BearerLogin.token(fromHeader: head.headers.first(name: "authorization"))
        return WebSocketStreamHandler.Handover(
            session: session, bearer: bearer, processor: responder.processor,
            token: header ?? params.string("access_token"),
            initialStream: params.string("stream").flatMap {
                MastodonStream(name: $0, tag: params.string("tag"), list: params.string("list"))
            },
            origin: "http://\(head.headers.first(name: "host") ?? "localhost")",
            hostAllowed: responder.hostCheck.allows(head.headers.first(name: "host")), onClosed: onClosed)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is DrainEvent {
            draining = true
            if !inFlight && head == nil && waiting.isEmpty { context.close(promise: nil) }
        } else if event is IdleStateHandler.IdleStateEvent {
            // A stream is kept alive by its heartbeat; what is idle then is a client that stopped reading.
            if !inFlight && !streaming { context.close(promise: nil) }
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// A request NIO could not parse is answered 400 (431 for headers over the limit) with `{"error": ...}` when
    /// no response is under way, and the connection closes: it cannot be read any further.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        logger.debug("http connection error", metadata: ["connection": "\(session.id)", "error": "\(error)"])
        if let parserError = error as? HTTPParserError, !inFlight, !streaming {
            let refusal =
                parserError == .headerOverflow
                ? MastodonError(
                    status: 431, "The request's headers are larger than \(HTTPServer.maximumHeaderBytes) bytes")
                : MastodonError(status: 400, "The request could not be read as HTTP/1.1 (\(parserError))")
            write(refusal.response, version: .http1_1, keepAlive: false, context: context)
        } else if error is NIOWebSocketUpgradeError, !inFlight, !streaming {
            // NIO's upgrader refused a WebSocket upgrade elsewhere than /api/v1/streaming (or without its headers).
            let refusal = MastodonError(status: 400, "A WebSocket is served only at /api/v1/streaming")
            write(refusal.response, version: .http1_1, keepAlive: false, context: context)
        }
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
        heartbeat = nil
        session.connectionClosed()
        onClosed()
    }

    func taskExecutor(on eventLoop: any EventLoop) -> EventLoopTaskExecutor {
        if let executor { return executor }
        let made = EventLoopTaskExecutor(eventLoop)
        executor = made
        return made
    }
}
