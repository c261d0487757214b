import Glibc
import NIOCore
import TwitterServer

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
    private let idleSweepers: IdleSweepers

    /// The bytes of a read, framed here; an unfinished line stays for the next read. Its capacity is kept while
    /// the connection is busy (allocating it afresh for every read cost a pipelined fetch of 20 tweets 12,000
    /// instructions under callgrind, and framing straight from NIO's buffer 18,000) and given back by the idle
    /// check once the connection is quiet.
    private var buffer = ByteBuffer()
    /// How many bytes after the reader index are known to hold no newline. Each byte is searched once, so a long
    /// line arriving in many reads costs O(n), not O(n²): a 10 MB line took 30 s to frame in a debug build.
    private var searchedWithoutNewline = 0
    /// After an over-long line nothing more is framed: the stream cannot be resynchronised reliably.
    private var isDiscarding = false
    private var partialLineTimer: Scheduled<Void>?
    /// The loop's idle check, which watches this connection while it is in a pipeline.
    private var idleSweeper: IdleSweeper?
    private var context: ChannelHandlerContext?
    /// Set by every read and write, cleared by the idle check: a flag costs less than reading the clock.
    var sawActivity = false
    /// This connection's place in `idleSweeper`, while it is watched.
    var sweepSlot: IdleSweeper.Slot?

    /// Creates the handler; `idleSweepers` holds the idle checks of the server's event loops.
    init(limits: ServerConfiguration.Limits, idleSweepers: IdleSweepers = IdleSweepers()) {
        self.maximumLineLength = limits.maximumLineLength
        self.partialLineTimeout = TimeAmount(limits.partialLineTimeout)
        self.idleTimeout = TimeAmount(limits.idleTimeout)
        self.idleSweepers = idleSweepers
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let sweeper = idleSweepers.sweeper(on: context.eventLoop, timeout: idleTimeout)
        sweeper.add(self)
        idleSweeper = sweeper
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        partialLineTimer?.cancel()
        idleSweeper?.remove(self)
        idleSweeper = nil
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        sawActivity = true
        guard !isDiscarding else { return }
        buffer.writeBuffer(&incoming)
        let cut = cutLines(from: &buffer)
        buffer.discardReadBytes()
        searchedWithoutNewline = buffer.readableBytes
        if !cut.lines.isEmpty { fire(.lines(cut.lines), context: context) }
        if cut.isTooLong || (!isDiscarding && buffer.readableBytes > maximumLineLength) {
            reportLineTooLong(context: context)
        }
        updatePartialLineTimer(context: context)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        sawActivity = true
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

    /// The bytes kept for framing: none while the connection is quiet.
    var retainedBytes: Int { buffer.capacity }

    /// The idle check found no activity since its last look: the framing buffer is given back unless it holds
    /// an unfinished line.
    func quietSinceLastCheck() {
        if buffer.readableBytes == 0 && buffer.capacity > 0 { buffer = ByteBuffer() }
    }

    /// The idle check found the connection quiet for the timeout. The connection handler decides: a connection
    /// that holds subscriptions is waiting on the daemon, not idle, and stays; the check tells it again after
    /// another timeout.
    func idleTimedOut() {
        guard let context else { return }
        fireOutsideReadCycle(.idle, context: context)
    }

    /// The complete lines of a read, and whether one of them was too long (framing stops there).
    private struct Cut {
        var lines: [[UInt8]] = []
        var isTooLong = false
    }

    /// Takes the complete lines out of `bytes`, searching from `searchedWithoutNewline` on, and leaves the reader
    /// index after the last newline. Fires nothing: a frame fired while `bytes` is being read could come back
    /// into this handler (a close), which must find the buffer whole.
    ///
    /// The newline is found with `memchr` and each line copied out of the buffer's memory at once: searched through
    /// `ByteBufferView` and read with `readBytes`, a ping's 48-byte line cost 774 instructions (callgrind).
    private func cutLines(from bytes: inout ByteBuffer) -> Cut {
        var cut = Cut()
        let consumed = bytes.withUnsafeReadableBytes { readable -> Int in
            guard let base = readable.baseAddress else { return 0 }
            var lineStart = 0
            var searchFrom = searchedWithoutNewline
            while searchFrom < readable.count,
                let found = memchr(base + searchFrom, Int32(UInt8(ascii: "\n")), readable.count - searchFrom)
            {
                let newline = base.distance(to: UnsafeRawPointer(found))
                guard newline - lineStart <= maximumLineLength else {
                    cut.isTooLong = true
                    break
                }
                if cut.lines.isEmpty { cut.lines.reserveCapacity(16) }
                cut.lines.append(Array(UnsafeRawBufferPointer(rebasing: readable[lineStart..<newline])))
                lineStart = newline + 1
                searchFrom = lineStart
            }
            return lineStart
        }
        if consumed > 0 { searchedWithoutNewline = 0 }
        bytes.moveReaderIndex(forwardBy: consumed)
        return cut
    }

    /// A last line without a newline before EOF is still a request, as `printf '{…}' | socat` sends it.
    private func emitLastLine(context: ChannelHandlerContext) {
        guard !isDiscarding, buffer.readableBytes > 0 else { return }
        let line = buffer.readBytes(length: buffer.readableBytes) ?? []
        buffer = ByteBuffer()
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
}
