import JSONRPC
import Logging
import NIOCore
import TwitterCore

/// Serves one connection: reads whole lines, answers each in arrival order, and ends on EOF, a limit or a drain.
///
/// It never throws: whatever one connection does ends only that connection.
struct ConnectionHandler {
    let channel: NIOAsyncChannel<InboundFrame, ByteBuffer>
    let session: ConnectionSession
    let activity: ConnectionActivity
    let processor: RequestProcessor<RequestContext>
    let statistics: ServerStatistics
    let logger: Logger

    func run() async {
        let context = RequestContext(session: session)
        var reason = "client closed the connection"
        do {
            try await channel.executeThenClose { inbound, outbound in
                // Subscription forwarders run beside the request loop and end with it.
                try await withThrowingDiscardingTaskGroup { group in
                    defer { session.cancelAllSubscriptions() }
                    for try await frame in inbound {
                        defer { activity.frameAnswered() }
                        switch frame {
                        case .lines(let lines):
                            try await answer(lines, context: context, outbound: outbound)
                            for forwarder in session.takeForwardersToStart() {
                                group.addTask { [session] in
                                    await forwarder.run { line in try await outbound.write(Self.lineBuffer(line)) }
                                    _ = session.cancelSubscription(forwarder.id)
                                }
                            }
                        case .lineTooLong(let limit):
                            reason = "line longer than \(limit) bytes"
                            // Logged before the close so the reason is on record by the time the client sees EOF.
                            logger.notice("closing connection", metadata: metadata(reason))
                            try await outbound.write(Self.lineBuffer(Self.lineTooLongResponse(limit: limit)))
                            return
                        case .partialLineTimedOut:
                            reason = "an unfinished line waited too long for its newline"
                            logger.notice("closing connection", metadata: metadata(reason))
                            return
                        case .idle:
                            reason = "idle timeout"
                            return
                        case .drained:
                            reason = "daemon stopping"
                            return
                        }
                    }
                }
            }
        } catch {
            reason = "connection error: \(error)"
        }
        logger.debug("connection closed", metadata: metadata(reason))
    }

    private func metadata(_ reason: String) -> Logger.Metadata {
        ["connection": "\(session.id)", "peer": "\(session.peer)", "reason": "\(reason)"]
    }

    /// Answers a read's worth of pipelined lines in order, gathering the answers so that they leave in as few
    /// writes (and flushes) as possible.
    private func answer(
        _ lines: [[UInt8]], context: RequestContext, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) async throws {
        var pending = ByteBuffer()
        for line in lines {
            let outcome = await processor.respond(toLine: line, context: context)
            statistics.recordRequests(outcome.requestCount)
            guard let response = outcome.response else { continue }
            pending.writeBytes(response)
            pending.writeInteger(UInt8(ascii: "\n"))
            if pending.readableBytes >= Self.flushThreshold {
                try await outbound.write(pending)
                pending = ByteBuffer()
            }
        }
        if pending.readableBytes > 0 { try await outbound.write(pending) }
    }

    /// Gathered answers are sent once they reach this size, so a huge pipeline never buffers unboundedly.
    static let flushThreshold = 64 * 1024

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
