import JSONRPC
import NIOCore

/// Answers a read's worth of pipelined lines in order, gathering the answers so that they leave in as few
/// writes (and flushes) as possible.
struct LineAnswerer: Sendable {
    let processor: RequestProcessor<RequestContext>
    let statistics: ServerStatistics

    /// Gathered answers are sent once they reach this size, so a huge pipeline never buffers unboundedly.
    static let flushThreshold = 64 * 1024

    /// Answers `lines` and writes the answers to `channel`; returns the last write, if there was one.
    ///
    /// When the client stops reading and the channel is no longer writable, it waits for the write to go out
    /// before answering more, so answers do not pile up in memory either.
    func answer(_ lines: [[UInt8]], session: ConnectionSession, channel: any Channel) async -> EventLoopFuture<Void>? {
        let context = RequestContext(session: session)
        var pending = channel.allocator.buffer(capacity: 0)
        var lastWrite: EventLoopFuture<Void>?
        for line in lines {
            let outcome = await processor.respond(toLine: line, context: context)
            statistics.recordRequests(outcome.requestCount)
            guard let response = outcome.response else { continue }
            pending.writeBytes(response)
            pending.writeInteger(UInt8(ascii: "\n"))
            if pending.readableBytes >= Self.flushThreshold {
                lastWrite = await send(&pending, to: channel)
            }
        }
        if pending.readableBytes > 0 { lastWrite = await send(&pending, to: channel) }
        return lastWrite
    }

    private func send(_ pending: inout ByteBuffer, to channel: any Channel) async -> EventLoopFuture<Void> {
        let written = channel.eventLoop.makePromise(of: Void.self)
        channel.writeAndFlush(pending, promise: written)
        let write = written.futureResult
        pending = channel.allocator.buffer(capacity: 0)
        if !channel.isWritable { _ = try? await write.get() }
        return write
    }
}
