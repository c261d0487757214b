import JSONRPC
import NIOCore

/// Answers a read's worth of pipelined lines in order: at once, on the event loop, for as long as no line
/// has to wait, and then in a task for the rest.
struct LineAnswerer: Sendable {
    let processor: RequestProcessor<RequestContext>
    let statistics: ServerStatistics

    /// The lines of a read still to be answered when `answerNow` had to stop.
    struct Remainder: Sendable {
        /// The line it stopped at, parsed, when that line holds a call that has to wait.
        var stoppedAt: RequestProcessor<RequestContext>.PendingLine?
        /// The lines after it.
        var lines: ArraySlice<[UInt8]>
        /// Set when it stopped because the client is not reading: the rest waits until this write is taken.
        var untakenWrite: EventLoopFuture<Void>?
    }

    /// What `answerNow` did: the last write it made, and what it left for `answer(_:context:channel:)`.
    struct Progress {
        var lastWrite: EventLoopFuture<Void>?
        var remainder: Remainder?
    }

    /// Answers `lines` until one has to wait or the client stops reading, writing the answers to `channel`.
    func answerNow(_ lines: [[UInt8]], context: RequestContext, channel: any Channel) -> Progress {
        var writer = AnswerWriter(channel: channel)
        for index in lines.indices {
            switch processor.answerNow(toLine: lines[index], context: context) {
            case .answered(let outcome):
                record(outcome, into: &writer)
                if writer.isBlocked {
                    let rest = Remainder(stoppedAt: nil, lines: lines[(index + 1)...], untakenWrite: writer.lastWrite)
                    return Progress(lastWrite: writer.lastWrite, remainder: rest)
                }
            case .mustWait(let pending):
                // What is answered goes out now rather than waiting behind the slow call.
                writer.flush()
                let rest = Remainder(stoppedAt: pending, lines: lines[(index + 1)...], untakenWrite: nil)
                return Progress(lastWrite: writer.lastWrite, remainder: rest)
            }
        }
        writer.flush()
        // A client that does not read its answers is not read from either, until it catches up.
        let rest = writer.isBlocked ? Remainder(stoppedAt: nil, lines: [], untakenWrite: writer.lastWrite) : nil
        return Progress(lastWrite: writer.lastWrite, remainder: rest)
    }

    /// Answers what `answerNow` left, waiting for slow calls and for a client that does not read; returns the
    /// last write, if there was one.
    func answer(_ remainder: Remainder, context: RequestContext, channel: any Channel) async -> EventLoopFuture<Void>? {
        if let untaken = remainder.untakenWrite { _ = try? await untaken.get() }
        var writer = AnswerWriter(channel: channel)
        if let pending = remainder.stoppedAt {
            record(await processor.respond(to: pending, context: context), into: &writer)
            await writer.waitUntilTaken()
        }
        for line in remainder.lines {
            record(await processor.respond(toLine: line, context: context), into: &writer)
            await writer.waitUntilTaken()
        }
        writer.flush()
        await writer.waitUntilTaken()
        return writer.lastWrite
    }

    private func record(_ outcome: RequestProcessor<RequestContext>.Outcome, into writer: inout AnswerWriter) {
        statistics.recordRequests(outcome.requestCount)
        if let response = outcome.response { writer.append(response) }
    }
}
