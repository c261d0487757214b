import JSONRPC
import NIOCore
import TwitterServer

/// Answers a read's worth of pipelined lines in order, in the one task that answers the read.
///
/// **The one rule of order.** A connection's calls run one after another, each to its answer, in arrival
/// order, and are answered in that order: a call sees the effect of every call before it. One exception lets a
/// client's pipelined posts share a commit: a method declared `sharesCommits` (TwitterAPI, beside its rate)
/// queues its write in the store's commit order before its handler first suspends, so when such a call is ready
/// (no middleware has to wait first), it runs in a task of its own that starts on the spot and is queued, by the
/// time that task first waits, ahead of anything started after; the next line then starts at once when it calls
/// the same method, and queues behind it. Such calls still take effect, and are answered, in arrival order; any
/// other call waits for them all. Nothing is learnt at run time, and handlers know nothing of this.
///
/// Speed is this layer's business, not the handlers': the read's task starts at once, on the connection's event
/// loop (`ConnectionHandler`), so a call whose handler never suspends (a ping, a cached page) is answered before
/// the task first waits, with no hop through the event loop's queue, and a result that keeps its bytes is written
/// from them (`ResponseLine`).
struct LineAnswerer: Sendable {
    let processor: RequestProcessor<RequestContext>
    let statistics: ServerStatistics

    /// Answers `lines` by the rule of order above, waiting for slow calls and for a client that does not read;
    /// returns the last write, if there was one. Calls that share commits run in tasks of their own on
    /// `executor`, the connection's event loop.
    nonisolated(nonsending) func answer(
        _ lines: [[UInt8]], context: RequestContext, channel: any Channel, executor: any TaskExecutor
    )
        async -> EventLoopFuture<Void>?
    {
        let writer = AnswerWriter(channel: channel)
        var queued = QueuedCalls()
        // Read once a read: a reload applies from the next one.
        let limits = processor.limits
        for line in lines {
            if queued.isEmpty {
                // The hot path: nothing queued to wait for, so the line is read and its call started at once.
                switch processor.attempt(line, context: context, limits: limits) {
                case .answered(let outcome): record(outcome, into: writer)
                case .batch(let members): await answer(batch: members, context: context, queued: &queued, into: writer)
                case .running(let call):
                    await run(call, context: context, limits: limits, queued: &queued, into: writer, executor: executor)
                }
                await writer.waitUntilTaken()
                continue
            }
            switch processor.read(line, limits: limits) {
            case .answered(let outcome): queued.answers.append(.answered(outcome))
            case .batch(let members): await answer(batch: members, context: context, queued: &queued, into: writer)
            case .call(let request):
                // A call of another method starts only once the queued ones are answered.
                if !queued.admits(request.method) { await finish(&queued, into: writer) }
                switch processor.start(request, context: context, limits: limits) {
                case .answered(let outcome):
                    queued.isEmpty ? record(outcome, into: writer) : queued.answers.append(.answered(outcome))
                case .running(let call):
                    await run(call, context: context, limits: limits, queued: &queued, into: writer, executor: executor)
                }
            }
            await writer.waitUntilTaken()
        }
        await finish(&queued, into: writer)
        writer.flush()
        await writer.waitUntilTaken()
        return writer.lastWrite
    }

    /// Answers a batch, once the queued calls before it are answered: its members run one after another.
    private nonisolated(nonsending) func answer(
        batch members: [JSONValue], context: RequestContext, queued: inout QueuedCalls, into writer: AnswerWriter
    ) async {
        await finish(&queued, into: writer)
        writer.flush()
        record(await processor.respond(toBatch: members, context: context), into: writer)
    }

    /// Runs `call`: queued, in a task of its own, when its method shares commits and it is ready, so that the next
    /// line may queue behind it; otherwise here, to its answer. A task of its own costs about 4,000 instructions
    /// (callgrind), which is why only such calls get one.
    private nonisolated(nonsending) func run(
        _ call: RunningCall, context: RequestContext, limits: ProtocolLimits, queued: inout QueuedCalls,
        into writer: AnswerWriter, executor: any TaskExecutor
    ) async {
        if call.method.descriptor.sharesCommits && call.isReady {
            // Started on the spot: by the time it first waits, its write has its place in the commit order.
            let task = Task.immediate(executorPreference: executor) { [processor] in
                await processor.finish(call, context: context, limits: limits)
            }
            queued.append(task, method: call.request.method)
            return
        }
        await finish(&queued, into: writer)
        // What is answered goes out before a call that waits: at once before one that waits first (catching up
        // with other daemons), and at its first wait before any other.
        if call.isReady { writer.flushIfTheNextCallWaits() } else { writer.flush() }
        record(await processor.finish(call, context: context, limits: limits), into: writer)
    }

    /// Answers every queued call and what waited behind them, in arrival order, and sends the answers: the call
    /// that comes next may take a while.
    private nonisolated(nonsending) func finish(_ queued: inout QueuedCalls, into writer: AnswerWriter) async {
        guard !queued.isEmpty else { return }
        writer.flush()
        defer { writer.flush() }
        for answer in queued.answers {
            switch answer {
            case .call(let task): record(await task.value, into: writer)
            case .answered(let outcome): record(outcome, into: writer)
            }
            await writer.waitUntilTaken()
        }
        queued = QueuedCalls()
    }

    private func record(_ outcome: LineOutcome, into writer: AnswerWriter) {
        statistics.recordRequests(outcome.requestCount)
        if let line = outcome.line { writer.append(line) }
    }
}

/// Calls of one method that shares commits, queued behind one another in the commit order, and the answers that
/// came behind them, in arrival order: the exception of `LineAnswerer`'s rule of order.
struct QueuedCalls {
    enum Answer {
        case call(Task<LineOutcome, Never>)
        case answered(LineOutcome)
    }

    private(set) var method: String?
    var answers: [Answer] = []

    var isEmpty: Bool { answers.isEmpty }

    /// Whether a call of `method` may start at once, behind these: nothing is queued, or only calls of the same
    /// method, each of which took its place in the commit order before its task first waited.
    func admits(_ method: String) -> Bool {
        guard let queuedMethod = self.method else { return isEmpty }
        return method == queuedMethod
    }

    mutating func append(_ task: Task<LineOutcome, Never>, method: String) {
        self.method = method
        answers.append(.call(task))
    }
}
