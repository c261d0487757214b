import JSONRPC
import NIOCore

/// Gathers a connection's answers into as few writes (and flushes) as possible, and notices when the client
/// stops reading them.
struct AnswerWriter {
    /// Gathered answers are sent once they reach this size, so a huge pipeline never buffers unboundedly.
    static let flushThreshold = 64 * 1024
    /// Room for a read's worth of small answers (64 pipelined pings), so gathering them does not regrow.
    static let initialCapacity = 4096

    private let channel: any Channel
    private var pending: ByteBuffer
    /// The last write handed to the channel.
    private(set) var lastWrite: EventLoopFuture<Void>?
    /// True after a write left the channel unwritable: the client is not taking its answers.
    private(set) var isBlocked = false

    init(channel: any Channel) {
        self.channel = channel
        self.pending = channel.allocator.buffer(capacity: Self.initialCapacity)
    }

    /// Adds one answer line (without its newline) from its parts, straight into the buffer: the result's bytes
    /// are copied once, here, and the buffer grows at most once for them.
    mutating func append(_ line: ResponseLine) {
        if line.hasResult {
            pending.reserveCapacity(minimumWritableBytes: line.count + 1)
            pending.writeBytes(line.head)
            pending.writeBytes(line.result)
            pending.writeInteger(UInt8(ascii: "}"))
        } else {
            pending.writeBytes(line.head)
        }
        pending.writeInteger(UInt8(ascii: "\n"))
        if pending.readableBytes >= Self.flushThreshold { flush() }
    }

    /// Sends what has been gathered.
    mutating func flush() {
        guard pending.readableBytes > 0 else { return }
        let written = channel.eventLoop.makePromise(of: Void.self)
        channel.writeAndFlush(pending, promise: written)
        pending = channel.allocator.buffer(capacity: Self.initialCapacity)
        lastWrite = written.futureResult
        isBlocked = !channel.isWritable
    }

    /// Waits, if the client stopped reading, until it has taken the last write.
    mutating func waitUntilTaken() async {
        if isBlocked, let lastWrite { _ = try? await lastWrite.get() }
        isBlocked = false
    }
}
