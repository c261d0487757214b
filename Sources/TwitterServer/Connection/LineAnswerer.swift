import JSONRPC
import NIOCore
import TwitterCore

/// Answers a read's worth of pipelined lines in order: at once, on the event loop, for as long as no line
/// has to wait, and then in a task for the rest.
///
/// **The one rule of order.** A connection's calls run one after another, each to its answer, in arrival
/// order, and are answered in that order: a call sees the effect of every call before it. One exception lets a
/// client's pipelined posts share a commit: a call that has queued its write in a commit order (the store
/// stamps its `WriteOrder`) before it first waits lets the next line start at once when that line calls the
/// same method, which then queues behind it. Such calls still take effect, and are answered, in arrival order;
/// any other call waits for them all. Handlers know nothing of this: they are plain functions.
struct LineAnswerer: Sendable {
    let processor: RequestProcessor<RequestContext>
    let statistics: ServerStatistics

    /// Where `answerNow` stopped.
    enum Stop: Sendable {
        /// At a call whose handler has to run in a task.
        case call(RunningCall)
        /// At a batch, whose members run in a task.
        case batch([JSONValue])
        /// After a write the client has not taken yet: the rest waits until it is.
        case untaken(EventLoopFuture<Void>)
    }

    /// The lines of a read still to be answered when `answerNow` had to stop.
    struct Remainder: Sendable {
        var stop: Stop
        /// The lines after the one it stopped at.
        var lines: ArraySlice<[UInt8]>
    }

    /// What `answerNow` did: the last write it made, and what it left for `answer(_:context:channel:executor:)`.
    struct Progress {
        var lastWrite: EventLoopFuture<Void>?
        var remainder: Remainder?
    }

    /// Answers `lines` until one has to wait or the client stops reading, writing the answers to `channel`.
    func answerNow(_ lines: [[UInt8]], context: RequestContext, channel: any Channel) -> Progress {
        var writer = AnswerWriter(channel: channel)
        let limits = processor.limits
        for index in lines.indices {
            var stop: Stop?
            switch processor.attempt(lines[index], context: context, limits: limits) {
            case .answered(let outcome): record(outcome, into: &writer)
            case .running(let call): stop = .call(call)
            case .batch(let members): stop = .batch(members)
            }
            if stop == nil, writer.isBlocked, let untaken = writer.lastWrite { stop = .untaken(untaken) }
            guard let stop else { continue }
            // What is answered goes out now rather than waiting behind the slow call.
            writer.flush()
            return Progress(lastWrite: writer.lastWrite, remainder: Remainder(stop: stop, lines: lines[(index + 1)...]))
        }
        writer.flush()
        // A client that does not read its answers is not read from either, until it catches up.
        guard writer.isBlocked, let untaken = writer.lastWrite else { return Progress(lastWrite: writer.lastWrite) }
        return Progress(lastWrite: untaken, remainder: Remainder(stop: .untaken(untaken), lines: []))
    }

    /// Answers what `answerNow` left, by the rule of order above, waiting for slow calls and for a client that
    /// does not read; returns the last write, if there was one. Calls that queue behind one another run in tasks
    /// of their own on `executor`, the connection's event loop.
    func answer(_ remainder: Remainder, context: RequestContext, channel: any Channel, executor: any TaskExecutor)
        async -> EventLoopFuture<Void>?
    {
        var writer = AnswerWriter(channel: channel)
        var queued = QueuedCalls()
        switch remainder.stop {
        case .call(let call): await run(call, queued: &queued, into: &writer, executor: executor)
        case .batch(let members): record(await processor.respond(toBatch: members, context: context), into: &writer)
        case .untaken(let write): _ = try? await write.get()
        }
        for line in remainder.lines {
            let limits = processor.limits
            switch processor.read(line, limits: limits) {
            case .answered(let outcome):
                queued.isEmpty ? record(outcome, into: &writer) : queued.answers.append(.answered(outcome))
            case .batch(let members):
                await finish(&queued, into: &writer)
                writer.flush()
                record(await processor.respond(toBatch: members, context: context), into: &writer)
            case .call(let request):
                if !queued.admits(request.method) { await finish(&queued, into: &writer) }
                switch processor.start(request, context: context, limits: limits) {
                case .answered(let outcome):
                    queued.isEmpty ? record(outcome, into: &writer) : queued.answers.append(.answered(outcome))
                case .running(let call):
                    await run(call, queued: &queued, into: &writer, executor: executor)
                }
            }
            await writer.waitUntilTaken()
        }
        await finish(&queued, into: &writer)
        writer.flush()
        await writer.waitUntilTaken()
        return writer.lastWrite
    }

    /// Runs `call` with a `WriteOrder` ticket: in a task of its own, queued, when its method is known to queue
    /// its writes (so the next line may queue behind it); otherwise here, to its answer, learning whether it
    /// queued. Learning it costs posts their first call's place in a shared commit, once a method; running every
    /// call in a task of its own would cost every read about 4,000 instructions (`MethodHandler.Body`).
    private func run(
        _ call: RunningCall, queued: inout QueuedCalls, into writer: inout AnswerWriter, executor: any TaskExecutor
    ) async {
        let order = WriteOrder()
        if call.method.queuesWrites {
            let task = WriteOrder.$current.withValue(order) {
                Task.immediate(executorPreference: executor) { [processor] in await processor.finish(call) }
            }
            queued.append(task, method: call.request.method, order: order)
            return
        }
        // What is answered goes out before a call that may take a while.
        writer.flush()
        let outcome = await WriteOrder.$current.withValue(order) { await processor.finish(call) }
        if order.hasTakenPlace { call.method.noteQueuesWrites() }
        queued.isEmpty ? record(outcome, into: &writer) : queued.answers.append(.answered(outcome))
    }

    /// Answers every queued call and what waited behind them, in arrival order, and sends the answers: the call
    /// that comes next may take a while.
    private func finish(_ queued: inout QueuedCalls, into writer: inout AnswerWriter) async {
        guard !queued.isEmpty else { return }
        writer.flush()
        defer { writer.flush() }
        for answer in queued.answers {
            switch answer {
            case .call(let task): record(await task.value, into: &writer)
            case .answered(let outcome): record(outcome, into: &writer)
            }
            await writer.waitUntilTaken()
        }
        queued = QueuedCalls()
    }

    private func record(_ outcome: LineOutcome, into writer: inout AnswerWriter) {
        statistics.recordRequests(outcome.requestCount)
        if let line = outcome.line { writer.append(line) }
    }
}

/// Calls of one method queued behind one another in a commit order, and the answers that came behind them,
/// in arrival order: the exception of `LineAnswerer`'s rule of order.
struct QueuedCalls {
    enum Answer {
        case call(Task<LineOutcome, Never>)
        case answered(LineOutcome)
    }

    private(set) var method: String?
    private var lastOrder: WriteOrder?
    var answers: [Answer] = []

    var isEmpty: Bool { answers.isEmpty }

    /// Whether a call of `method` may start at once, behind these: only a call of the same method, and only
    /// once the last call has taken its place in the commit order, so that it is queued behind.
    func admits(_ method: String) -> Bool {
        guard let lastOrder else { return isEmpty }
        return method == self.method && lastOrder.hasTakenPlace
    }

    mutating func append(_ task: Task<LineOutcome, Never>, method: String, order: WriteOrder) {
        self.method = method
        lastOrder = order
        answers.append(.call(task))
    }
}
