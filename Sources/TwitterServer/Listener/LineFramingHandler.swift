import NIOCore

/// Cuts the byte stream into lines and enforces the line limit and the partial-line and idle timeouts.
///
/// Framing lives in its own handler so that the connection handler only ever sees whole lines.
final class LineFramingHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = InboundFrame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let maximumLineLength: Int
    private let partialLineTimeout: TimeAmount
    private let idleTimeout: TimeAmount

    private var buffer = ByteBuffer()
    /// How many bytes after the reader index are known to hold no newline. Each byte is searched once, so a long
    /// line arriving in many reads costs O(n), not O(n²): a 10 MB line took 30 s to frame in a debug build.
    private var searchedWithoutNewline = 0
    /// After an over-long line nothing more is framed: the stream cannot be resynchronised reliably.
    private var isDiscarding = false
    private var partialLineTimer: Scheduled<Void>?
    private var idleTimer: Scheduled<Void>?
    /// When the connection last read or wrote; the idle timer compares with it instead of being
    /// rescheduled on every read and write, which would cost a timer allocation per answer.
    private var lastActivity = NIODeadline.now()

    init(limits: ServerConfiguration.Limits) {
        self.maximumLineLength = limits.maximumLineLength
        self.partialLineTimeout = TimeAmount(limits.partialLineTimeout)
        self.idleTimeout = TimeAmount(limits.idleTimeout)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        scheduleIdleTimer(in: idleTimeout, context: context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        partialLineTimer?.cancel()
        idleTimer?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        lastActivity = .now()
        guard !isDiscarding else { return }
        buffer.writeBuffer(&incoming)
        emitLines(context: context)
        if !isDiscarding && buffer.readableBytes > maximumLineLength {
            reportLineTooLong(context: context)
        }
        updatePartialLineTimer(context: context)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        lastActivity = .now()
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            emitLastLine(context: context)
            fireOutsideReadCycle(.endOfInput, context: context)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        emitLastLine(context: context)
        context.fireChannelInactive()
    }

    private func emitLines(context: ChannelHandlerContext) {
        var lines: [[UInt8]] = []
        lines.reserveCapacity(16)
        defer {
            if !lines.isEmpty { fire(.lines(lines), context: context) }
            buffer.discardReadBytes()
        }
        while let newline = buffer.readableBytesView.dropFirst(searchedWithoutNewline).firstIndex(
            of: UInt8(ascii: "\n"))
        {
            searchedWithoutNewline = 0
            let length = newline - buffer.readerIndex
            guard length <= maximumLineLength else {
                if !lines.isEmpty { fire(.lines(lines), context: context) }
                lines = []
                reportLineTooLong(context: context)
                return
            }
            lines.append(buffer.readBytes(length: length) ?? [])
            buffer.moveReaderIndex(forwardBy: 1)
        }
        searchedWithoutNewline = buffer.readableBytes
    }

    /// A last line without a newline before EOF is still a request, as `printf '{…}' | socat` sends it.
    private func emitLastLine(context: ChannelHandlerContext) {
        guard !isDiscarding, buffer.readableBytes > 0 else { return }
        let line = buffer.readBytes(length: buffer.readableBytes) ?? []
        buffer.clear()
        searchedWithoutNewline = 0
        partialLineTimer?.cancel()
        partialLineTimer = nil
        fire(.lines([line]), context: context)
    }

    private func reportLineTooLong(context: ChannelHandlerContext) {
        isDiscarding = true
        buffer = ByteBuffer()
        searchedWithoutNewline = 0
        partialLineTimer?.cancel()
        fire(.lineTooLong(limit: maximumLineLength), context: context)
    }

    private func fire(_ frame: InboundFrame, context: ChannelHandlerContext) {
        context.fireChannelRead(wrapInboundOut(frame))
    }

    /// A frame made by a timer or an event closes its own read cycle, as a read would.
    private func fireOutsideReadCycle(_ frame: InboundFrame, context: ChannelHandlerContext) {
        fire(frame, context: context)
        context.fireChannelReadComplete()
    }

    private func updatePartialLineTimer(context: ChannelHandlerContext) {
        if buffer.readableBytes == 0 || isDiscarding {
            partialLineTimer?.cancel()
            partialLineTimer = nil
        } else if partialLineTimer == nil {
            // Measured from the first byte of the line, not the last, so a byte every few seconds cannot
            // keep a connection open forever.
            // Isolated to the channel's loop, where the handler and its context live.
            partialLineTimer = context.eventLoop.assumeIsolated().scheduleTask(in: partialLineTimeout) {
                self.isDiscarding = true
                self.fireOutsideReadCycle(.partialLineTimedOut, context: context)
            }
        }
    }

    /// Fires each time the connection has been quiet for the idle timeout; activity since the timer was set
    /// only moves the next check later.
    private func scheduleIdleTimer(in delay: TimeAmount, context: ChannelHandlerContext) {
        idleTimer = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
            let quietFor = NIODeadline.now() - self.lastActivity
            if quietFor >= self.idleTimeout {
                // The connection handler decides: a connection that holds subscriptions is waiting on the
                // daemon, not idle, and stays; the timer keeps checking for when it no longer does.
                self.lastActivity = .now()
                self.scheduleIdleTimer(in: self.idleTimeout, context: context)
                self.fireOutsideReadCycle(.idle, context: context)
            } else {
                self.scheduleIdleTimer(in: self.idleTimeout - quietFor, context: context)
            }
        }
    }
}
