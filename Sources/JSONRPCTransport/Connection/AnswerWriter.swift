import JSONRPC
import NIOCore

/// Gathers a connection's answers into as few writes (and flushes) as possible, and notices when the client
/// stops reading them.
///
/// Used on the connection's event loop only, by the task answering a read (which runs there) and by the flush it
/// arms there (`flushIfTheNextCallWaits`), one after the other: a class so that both reach the same gathered bytes.
final class AnswerWriter {
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
    /// Whether a flush is queued on the event loop behind the running call (`flushIfTheNextCallWaits`).
    private var flushQueued = false

    init(channel: any Channel) {
        self.channel = channel
        self.pending = channel.allocator.buffer(capacity: Self.initialCapacity)
    }

    /// Adds one answer line (without its newline) from its parts, straight into the buffer: the result's bytes
    /// are copied once, here, and the buffer grows at most once for them. The parts are copied into the buffer's
    /// memory in one write: a `writeBytes` and a `writeInteger` each cost a ping about 270 instructions of checks
    /// (callgrind).
    func append(_ line: ResponseLine) {
        let size = line.count + 1
        pending.writeWithUnsafeMutableBytes(minimumWritableBytes: size) { free in
            var at = 0
            func copy(_ part: [UInt8]) {
                part.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: free[at...]).copyMemory(from: $0) }
                at += part.count
            }
            copy(line.head)
            if line.hasResult {
                copy(line.result)
                free[at] = UInt8(ascii: "}")
                at += 1
            }
            free[at] = UInt8(ascii: "\n")
            return size
        }
        if pending.readableBytes >= Self.flushThreshold { flush() }
    }

    /// Sends what has been gathered.
    func flush() {
        guard pending.readableBytes > 0 else { return }
        let written = channel.eventLoop.makePromise(of: Void.self)
        channel.writeAndFlush(pending, promise: written)
        pending = channel.allocator.buffer(capacity: Self.initialCapacity)
        lastWrite = written.futureResult
        isBlocked = !channel.isWritable
    }

    /// Waits, if the client stopped reading, until it has taken the last write.
    nonisolated(nonsending) func waitUntilTaken() async {
        if isBlocked, let lastWrite { _ = try? await lastWrite.get() }
        isBlocked = false
    }

    /// Sends what has been gathered if the call about to run has to wait: the answers before it go out then, not
    /// behind it, and one that does not wait costs no write. The flush is queued on the event loop, which runs it
    /// only once the task answering the read waits (or has ended); one is queued at a time, so a read of pipelined
    /// calls that never wait costs one queued job, not one a call.
    func flushIfTheNextCallWaits() {
        guard pending.readableBytes > 0, !flushQueued else { return }
        flushQueued = true
        let writer = NIOLoopBound(self, eventLoop: channel.eventLoop)
        channel.eventLoop.execute {
            writer.value.flushQueued = false
            writer.value.flush()
        }
    }
}
