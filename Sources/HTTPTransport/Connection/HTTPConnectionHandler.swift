import EventLoopExecutor
import Logging
import MastodonAPI
import NIOCore
import NIOHTTP1
import NIOWebSocket
import TwitterServer

/// Serves one HTTP connection: reads a request (head, body up to the limit, end), answers it in a task on the
/// connection's event loop, and writes the response. NIO's pipelining handler before it holds the next request
/// until this response has ended, so pipelined requests are answered one at a time, in order.
///
/// Keep-alive unless the client or a drain says otherwise; an idle connection with nothing in flight is closed.
/// It never sets a cookie.
final class HTTPConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

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
            answer(requestHead, context: context)
        }
    }

    private func answer(_ requestHead: HTTPRequestHead, context: ChannelHandlerContext) {
        let keepAlive = requestHead.isKeepAlive && !draining
        if bodyTooLarge {
            let refusal = MastodonError(
                status: 413, "The body is larger than the daemon takes (\(maximumBodyBytes) bytes)")
            write(refusal.response, version: requestHead.version, keepAlive: false, context: context)
            return
        }
        let headers = requestHead.headers
        let request = HTTPRequestInfo(
            method: requestHead.method.rawValue, uri: requestHead.uri, host: headers.first(name: "host"),
            authorization: headers.first(name: "authorization"), contentType: headers.first(name: "content-type"),
            idempotencyKey: headers.first(name: "idempotency-key"), body: body)
        body = []
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
                        response, version: requestHead.version, keepAlive: keepAlive && !handler.value.draining,
                        withBody: requestHead.method != .HEAD, context: loopContext.value)
                case .events(let start):
                    // The connection is the stream's from now on: it ends with it.
                    handler.value.streaming = true
                    handler.value.startEvents(start, version: requestHead.version, context: loopContext.value)
                }
            }
            if eventLoop.inEventLoop { finish() } else { eventLoop.execute(finish) }
        }
    }

    /// Without `withBody` (the answer to a `HEAD`), the head says what a `GET` would get, its `Content-Length`
    /// too, and no body follows.
    func write(
        _ response: MastodonResponse, version: HTTPVersion, keepAlive: Bool, withBody: Bool = true,
        context: ChannelHandlerContext
    ) {
        guard !ended else { return }
        var headers = HTTPHeaders()
        headers.reserveCapacity(4 + response.headers.count)
        // An endpoint's own Content-Type (the authorize page's text/plain), in any case, replaces the default.
        if !response.headers.contains(where: { $0.name.lowercased() == "content-type" }) {
            headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        }
        headers.add(name: "Content-Length", value: String(response.body.count))
        headers.add(name: "Cache-Control", value: "no-store")
        for header in response.headers { headers.add(name: header.name, value: header.value) }
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let status = HTTPResponseStatus(statusCode: response.status)
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
        if withBody {
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: response.body)))),
                promise: nil)
        }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let loopContext = NIOLoopBound(context, eventLoop: context.eventLoop)
            done.whenComplete { _ in loopContext.value.close(promise: nil) }
        }
    }

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
            if !inFlight && head == nil { context.close(promise: nil) }
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
