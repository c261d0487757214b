import JSONRPC
import NIOCore

/// Answers a read's worth of pipelined lines in order: at once, on the event loop, for as long as no line
/// has to wait, and then in a task for the rest.
struct LineAnswerer: Sendable {
    typealias Processor = RequestProcessor<RequestContext>

    let processor: Processor
    let statistics: ServerStatistics

    /// Where `answerNow` stopped.
    enum Stop: Sendable {
        /// At a line that has to wait, parsed.
        case pending(PendingLine)
        /// At a call that is started and awaits its result.
        case started(StartedCall)
        /// After a write the client has not taken yet: the rest waits until it is.
        case untaken(EventLoopFuture<Void>)
    }

    /// The lines of a read still to be answered when `answerNow` had to stop.
    struct Remainder: Sendable {
        var stop: Stop
        /// The lines after the one it stopped at.
        var lines: ArraySlice<[UInt8]>
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
            let stop: Stop
            switch processor.answerNow(toLine: lines[index], context: context) {
            case .answered(let outcome):
                record(outcome, into: &writer)
                guard writer.isBlocked, let untaken = writer.lastWrite else { continue }
                stop = .untaken(untaken)
            case .mustWait(let pending):
                stop = .pending(pending)
            case .started(let call):
                stop = .started(call)
            }
            // What is answered goes out now rather than waiting behind the slow call.
            writer.flush()
            return Progress(lastWrite: writer.lastWrite, remainder: Remainder(stop: stop, lines: lines[(index + 1)...]))
        }
        writer.flush()
        // A client that does not read its answers is not read from either, until it catches up.
        guard writer.isBlocked, let untaken = writer.lastWrite else { return Progress(lastWrite: writer.lastWrite) }
        return Progress(lastWrite: untaken, remainder: Remainder(stop: .untaken(untaken), lines: []))
    }

    /// Answers what `answerNow` left, waiting for slow calls and for a client that does not read; returns the
    /// last write, if there was one.
    ///
    /// Consecutive startable calls (posts) are all started before the first is awaited, so their waits
    /// overlap; anything else first waits for them, so it never misses their effect.
    func answer(_ remainder: Remainder, context: RequestContext, channel: any Channel) async -> EventLoopFuture<Void>? {
        var writer = AnswerWriter(channel: channel)
        var started = StartedCalls()
        switch remainder.stop {
        case .pending(let pending): record(await processor.respond(to: pending, context: context), into: &writer)
        case .started(let call): started.append(.call(call))
        case .untaken(let write): _ = try? await write.get()
        }
        for line in remainder.lines {
            switch processor.answerNow(toLine: line, context: context, behindStartedCalls: !started.isEmpty) {
            case .answered(let outcome) where started.isEmpty:
                record(outcome, into: &writer)
            case .answered(let outcome):
                started.append(.answered(outcome))
            case .started(let call):
                started.append(.call(call))
            case .mustWait(let pending):
                await finish(&started, context: context, into: &writer)
                record(await processor.respond(to: pending, context: context), into: &writer)
            }
            await writer.waitUntilTaken()
        }
        await finish(&started, context: context, into: &writer)
        writer.flush()
        await writer.waitUntilTaken()
        return writer.lastWrite
    }

    /// Started calls and the answers queued behind them, in arrival order.
    private typealias StartedCalls = [StartedAnswer]

    private enum StartedAnswer {
        case call(StartedCall)
        case answered(LineOutcome)
    }

    private func finish(_ started: inout StartedCalls, context: RequestContext, into writer: inout AnswerWriter) async {
        for item in started {
            switch item {
            case .call(let call): record(await processor.finish(call, context: context), into: &writer)
            case .answered(let outcome): record(outcome, into: &writer)
            }
            await writer.waitUntilTaken()
        }
        started.removeAll()
    }

    private func record(_ outcome: LineOutcome, into writer: inout AnswerWriter) {
        statistics.recordRequests(outcome.requestCount)
        if let line = outcome.line { writer.append(line) }
    }
}
