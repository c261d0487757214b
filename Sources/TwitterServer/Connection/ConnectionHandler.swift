import JSONRPC
import Logging
import NIOCore
import TwitterCore

/// Serves one connection: answers each read's lines in arrival order, and ends the connection on EOF, a
/// limit, a timeout or a drain.
///
/// Lines are answered on the event loop as they arrive; a task starts only at the first line that has to
/// wait (a login, a post, a read from SQLite) and ends once the read is answered. An idle connection owns
/// no task, so ten thousand idle connections cost only their channels. While a task runs, the connection
/// reads nothing more: a client that pipelines faster than it is answered waits in the kernel instead of
/// in our memory.
///
/// It never throws: whatever one connection does ends only that connection.
final class ConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = InboundFrame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let session: ConnectionSession
    private let requestContext: RequestContext
    private let activity: ConnectionActivity
    private let answerer: LineAnswerer
    private let logger: Logger
    private let onClosed: () -> Void
    private let executor: EventLoopTaskExecutor

    /// Frames that arrived while a task was answering; rarely more than one or two.
    private var waiting = CircularBuffer<InboundFrame>(initialCapacity: 2)
    private var isAnswering = false
    private var isReadHeld = false
    private var isClosing = false
    private var isClosed = false
    /// The client has shut down its writing side; the connection stays open only for its subscriptions.
    private var isInputEnded = false
    /// The last answer handed to the channel: a close waits for it, so nothing answered is cut off.
    private var lastWrite: EventLoopFuture<Void>?
    private var closeReason = "client closed the connection"

    init(
        session: ConnectionSession, activity: ConnectionActivity, answerer: LineAnswerer, eventLoop: any EventLoop,
        logger: Logger, onClosed: @escaping () -> Void
    ) {
        self.session = session
        self.requestContext = RequestContext(session: session)
        self.activity = activity
        self.answerer = answerer
        self.logger = logger
        self.onClosed = onClosed
        self.executor = EventLoopTaskExecutor(eventLoop)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        connectionEnded()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        waiting.append(unwrapInboundIn(data))
        answerWaiting(context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        connectionEnded()
        context.fireChannelInactive()
    }

    private func connectionEnded() {
        guard !isClosed else { return }
        isClosed = true
        waiting.removeAll()
        session.connectionClosed()
        logger.debug("connection closed", metadata: metadata(closeReason))
        onClosed()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        closeReason = "connection error: \(error)"
        context.close(promise: nil)
    }

    /// Holds reads while lines are being answered: the backpressure that bounds a pipelining client.
    func read(context: ChannelHandlerContext) {
        if isAnswering || !waiting.isEmpty {
            isReadHeld = true
        } else {
            context.read()
        }
    }

    private func answerWaiting(context: ChannelHandlerContext) {
        while !isAnswering, !isClosing, let frame = waiting.popFirst() {
            switch frame {
            case .lines(let lines):
                let progress = answerer.answerNow(lines, context: requestContext, channel: context.channel)
                if let written = progress.lastWrite { lastWrite = written }
                if let remainder = progress.remainder {
                    startAnswering(remainder, context: context)
                    return
                }
                startSubscriptions(context: context)
            case .lineTooLong(let limit):
                // Logged before the close so the reason is on record by the time the client sees EOF.
                close(context: context, reason: "line longer than \(limit) bytes", notice: true) {
                    Self.lineBuffer(Self.lineTooLongResponse(limit: limit))
                }
            case .partialLineTimedOut:
                close(context: context, reason: "an unfinished line waited too long for its newline", notice: true)
            case .idle:
                close(context: context, reason: "idle timeout")
            case .drained:
                close(context: context, reason: "daemon stopping")
            case .endOfInput:
                // A client that half-closes after subscribing (as `socat -t` does) still gets its notifications.
                isInputEnded = true
                if !session.hasSubscriptions { close(context: context, reason: "client closed the connection") }
            }
            activity.frameAnswered()
        }
        if !isAnswering, isReadHeld {
            isReadHeld = false
            context.read()
        }
    }

    /// Answers the rest of a read in a task, on this connection's event loop, while reads are held.
    private func startAnswering(_ remainder: LineAnswerer.Remainder, context: ChannelHandlerContext) {
        isAnswering = true
        let channel = context.channel
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loopContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        Task(executorPreference: executor) { [answerer, requestContext] in
            let written = await answerer.answer(remainder, context: requestContext, channel: channel)
            // The task runs on this connection's event loop, so it usually finishes on the spot.
            if channel.eventLoop.inEventLoop {
                handler.value.finishedAnswering(lastWrite: written, context: loopContext.value)
            } else {
                channel.eventLoop.execute {
                    handler.value.finishedAnswering(lastWrite: written, context: loopContext.value)
                }
            }
        }
    }

    private func finishedAnswering(lastWrite written: EventLoopFuture<Void>?, context: ChannelHandlerContext) {
        isAnswering = false
        activity.frameAnswered()
        if let written { lastWrite = written }
        guard !isClosed else { return }
        startSubscriptions(context: context)
        answerWaiting(context: context)
    }

    /// Subscriptions start only once a read is answered, so the answer to tweets.subscribe precedes its first
    /// notification.
    private func startSubscriptions(context: ChannelHandlerContext) {
        for forwarder in session.takeForwardersToStart() {
            start(forwarder, context: context)
        }
    }

    private func start(_ forwarder: SubscriptionForwarder, context: ChannelHandlerContext) {
        let channel = context.channel
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loopContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        Task(executorPreference: executor) { [session] in
            await forwarder.run { line in
                // Checked on the event loop, where `auth.revoked` is written too: once a revocation has queued
                // that line, no subscription line can follow it.
                try await channel.eventLoop.flatSubmit {
                    guard session.isServingSubscriptions else {
                        return channel.eventLoop.makeFailedFuture(CancellationError())
                    }
                    return channel.writeAndFlush(ConnectionHandler.lineBuffer(line))
                }.get()
            }
            _ = session.cancelSubscription(forwarder.id)
            channel.eventLoop.execute { handler.value.subscriptionEnded(context: loopContext.value) }
        }
    }

    private func subscriptionEnded(context: ChannelHandlerContext) {
        guard isInputEnded, !isClosing, !session.hasSubscriptions else { return }
        close(context: context, reason: "client closed the connection")
    }

    /// Closes once everything already answered has been written, after sending `farewell` if given.
    private func close(
        context: ChannelHandlerContext, reason: String, notice: Bool = false, farewell: (() -> ByteBuffer)? = nil
    ) {
        isClosing = true
        closeReason = reason
        if notice { logger.notice("closing connection", metadata: metadata(reason)) }
        if let farewell { lastWrite = context.writeAndFlush(wrapOutboundOut(farewell())) }
        guard let lastWrite else {
            context.close(promise: nil)
            return
        }
        lastWrite.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
    }

    private func metadata(_ reason: String) -> Logger.Metadata {
        ["connection": "\(session.id)", "peer": "\(session.peer)", "reason": "\(reason)"]
    }

    static func lineBuffer(_ bytes: [UInt8]) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(bytes.count + 1)
        buffer.writeBytes(bytes)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }

    static func lineTooLongResponse(limit: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        let error = RPCError.invalidRequest(
            "line longer than \(limit) bytes; closing the connection", ["limit": .number(JSONNumber(limit))]
        )
        ResponseWriter.writeError(error, id: .null, into: &bytes)
        return bytes
    }
}
