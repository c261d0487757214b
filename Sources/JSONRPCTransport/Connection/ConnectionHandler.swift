import EventLoopExecutor
import JSONRPC
import Logging
import NIOCore
import TwitterCore
import TwitterServer

/// Serves one connection: answers each read's lines in arrival order, and ends the connection on EOF, a
/// limit, a timeout or a drain, as its `ConnectionStateMachine` decides.
///
/// Each read's lines are answered in one task that starts on the spot, on the connection's event loop, and ends
/// once the read is answered: lines that need no waiting (a ping, a cached page) are answered before it first
/// waits. An idle connection owns no task, so ten thousand idle connections cost only their channels. While a task runs, the connection
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
    private let answerer: LineAnswerer
    private let logger: Logger
    private let onClosed: () -> Void
    /// Runs this connection's tasks on its event loop; made at the first read, so a connection that never sends
    /// has none.
    private var executor: EventLoopTaskExecutor?

    private var machine = ConnectionStateMachine()
    /// Frames that arrived while a task was answering; rarely more than one or two, and empty (holding no memory)
    /// otherwise: a frame that finds nothing waiting is answered without being queued.
    private var waiting: [InboundFrame] = []
    /// The last answer handed to the channel: a close waits for it, so nothing answered is cut off.
    private var lastWrite: EventLoopFuture<Void>?
    /// Whether the task answering a read is being started here, and finished while it was: so that a task that
    /// never waits does not finish re-entrantly, from inside its own start.
    private var answering = StartingTask.idle

    private enum StartingTask {
        case idle
        case starting
        case finishedWhileStarting(EventLoopFuture<Void>?)
    }

    init(
        session: ConnectionSession, answerer: LineAnswerer, logger: Logger, onClosed: @escaping () -> Void
    ) {
        self.session = session
        self.requestContext = RequestContext(session: session)
        self.answerer = answerer
        self.logger = logger
        self.onClosed = onClosed
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        connectionEnded()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        if waiting.isEmpty && machine.canAnswer {
            answer(frame, context: context)
        } else {
            waiting.append(frame)
            answerWaiting(context: context)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        machine.bytesArrived()
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        connectionEnded()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is DrainEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        perform(machine.drainRequested(), context: context)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        perform(machine.closeRequested("connection error: \(error)"), context: context)
    }

    /// Holds reads while lines are being answered: the backpressure that bounds a pipelining client.
    func read(context: ChannelHandlerContext) {
        if machine.readRequested() == .read { context.read() }
    }

    private func connectionEnded() {
        guard let reason = machine.channelClosed() else { return }
        waiting.removeAll()
        session.connectionClosed()
        logger.debug("connection closed", metadata: metadata(reason))
        onClosed()
    }

    private func answerWaiting(context: ChannelHandlerContext) {
        while machine.canAnswer, !waiting.isEmpty {
            let frame = waiting.removeFirst()
            if waiting.isEmpty { waiting.removeAll() }
            answer(frame, context: context)
        }
    }

    private func answer(_ frame: InboundFrame, context: ChannelHandlerContext) {
        switch frame {
        case .lines(let lines):
            perform(machine.answerStarted(), context: context)
            startAnswering(lines, context: context)
        case .lineTooLong(let limit):
            // Logged before the close so the reason is on record by the time the client sees EOF.
            let action = machine.closeRequested("line longer than \(limit) bytes", notice: true)
            perform(action, context: context) { Self.lineBuffer(Self.lineTooLongResponse(limit: limit)) }
        case .partialLineTimedOut:
            let reason = "an unfinished line waited too long for its newline"
            perform(machine.closeRequested(reason, notice: true), context: context)
        case .idle:
            // A subscriber waits for what the daemon pushes: `twctl timeline --follow` or the TUI may hear
            // nothing for hours and must not be cut off (and made to reconnect) every idle timeout.
            if !session.hasSubscriptions {
                perform(machine.closeRequested("idle timeout"), context: context)
            }
        case .endOfInput:
            // A client that half-closes after subscribing (as `socat -t` does) still gets its notifications.
            perform(machine.inputEnded(hasSubscriptions: session.hasSubscriptions), context: context)
        }
    }

    private func taskExecutor(on eventLoop: any EventLoop) -> EventLoopTaskExecutor {
        if let executor { return executor }
        let made = EventLoopTaskExecutor(eventLoop)
        executor = made
        return made
    }

    /// Answers a read's lines in one task, on this connection's event loop, while reads are held. The task starts
    /// at once, on this thread, and runs until it first waits: pings and pages read from memory are answered with
    /// no hop through the event loop's queue, and one task a read, not one a call, is what that costs.
    private func startAnswering(_ lines: [[UInt8]], context: ChannelHandlerContext) {
        let channel = context.channel
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loopContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        let executor = taskExecutor(on: context.eventLoop)
        answering = .starting
        Task.immediate(executorPreference: executor) { [answerer, requestContext] in
            let written = await answerer.answer(lines, context: requestContext, channel: channel, executor: executor)
            // The task runs on this connection's event loop, so it usually finishes on the spot.
            if channel.eventLoop.inEventLoop {
                handler.value.answered(lastWrite: written, context: loopContext.value)
            } else {
                channel.eventLoop.execute { handler.value.answered(lastWrite: written, context: loopContext.value) }
            }
        }
        // Finished before it ever waited: its end is taken here, not from inside the task's start.
        if case .finishedWhileStarting(let written) = answering {
            answering = .idle
            finishedAnswering(lastWrite: written, context: context)
        } else {
            answering = .idle
        }
    }

    private func answered(lastWrite written: EventLoopFuture<Void>?, context: ChannelHandlerContext) {
        guard case .starting = answering else { return finishedAnswering(lastWrite: written, context: context) }
        answering = .finishedWhileStarting(written)
    }

    private func finishedAnswering(lastWrite written: EventLoopFuture<Void>?, context: ChannelHandlerContext) {
        if let written { lastWrite = written }
        let action = machine.answerFinished()
        guard !machine.isClosing else { return }
        startSubscriptions(context: context)
        answerWaiting(context: context)
        if action == .resumeReading { read(context: context) }
    }

    /// Subscriptions start only once a read is answered, so the answer to tweets.subscribe precedes its first
    /// notification.
    private func startSubscriptions(context: ChannelHandlerContext) {
        for forwarder in session.takeForwardersToStart() {
            start(forwarder, context: context)
        }
    }

    private func start(_ forwarder: any StreamForwarding, context: ChannelHandlerContext) {
        let channel = context.channel
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loopContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        Task(executorPreference: taskExecutor(on: context.eventLoop)) { [session] in
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
        guard !session.hasSubscriptions else { return }
        perform(machine.subscriptionsEnded(), context: context)
    }

    /// Carries out what the state machine decided; `farewell` is the last line of a close, if there is one.
    private func perform(
        _ action: ConnectionStateMachine.Action, context: ChannelHandlerContext,
        farewell: (() -> ByteBuffer)? = nil
    ) {
        switch action {
        case .none:
            return
        case .resumeReading:
            read(context: context)
        case .scheduleQuietCheck:
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            let loopContext = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: ConnectionStateMachine.drainQuietPeriod) {
                let action = handler.value.machine.quietPeriodEnded(framesWaiting: !handler.value.waiting.isEmpty)
                handler.value.perform(action, context: loopContext.value)
            }
        case .close(let reason, let notice):
            if notice { logger.notice("closing connection", metadata: metadata(reason)) }
            if let farewell { lastWrite = context.writeAndFlush(wrapOutboundOut(farewell())) }
            guard let lastWrite else {
                context.close(promise: nil)
                return
            }
            lastWrite.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
        }
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
