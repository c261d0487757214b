import Histogram
import NIOCore

/// Drives one connection on its event loop: keeps `depth` requests in flight, checks and times every
/// answer (answers come back in request order), and stops sending at the deadline.
final class BenchConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let workload: Workload
    private let depth: Int
    private let deadline: NIODeadline
    private let account: Int
    /// The conversation the message workloads write to and read.
    private let conversation: Int64
    private let setup: [Request]
    private let done: EventLoopPromise<ConnectionStats>
    private var inFlight: [(sent: NIODeadline, request: Request)] = []
    private var head = 0
    private var sequence = 0
    private var stats = ConnectionStats()
    private var isFinished = false
    private var setupRemaining: Int
    /// The time, read once per read cycle: the answers of one read arrived together and the requests sent
    /// after them leave in one flush, so a clock read per request added cost and no precision.
    private var cycleTime: NIODeadline?

    init(
        workload: Workload, depth: Int, deadline: NIODeadline, account: Int, setup: [Request], conversation: Int64 = 0,
        done: EventLoopPromise<ConnectionStats>
    ) {
        self.conversation = conversation
        self.workload = workload
        self.depth = depth
        self.deadline = deadline
        self.account = account
        self.setup = setup
        self.setupRemaining = setup.count
        self.done = done
    }

    func channelActive(context: ChannelHandlerContext) {
        if setup.isEmpty {
            fill(context: context)
        } else {
            for request in setup { send(request, context: context) }
        }
        context.flush()
        cycleTime = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        guard head < inFlight.count else { return fail("answer without a request", context: context) }
        let (sent, request) = inFlight[head]
        head += 1
        if head > 1024 && head * 2 > inFlight.count {
            inFlight.removeFirst(head)
            head = 0
        }
        let accepted = request.accepts(line.readableBytesView)
        if setupRemaining > 0 {
            setupRemaining -= 1
            guard accepted else { return fail("setup failed: \(String(buffer: line))", context: context) }
            if setupRemaining == 0 { fill(context: context) }
            return
        }
        let micros = (now().uptimeNanoseconds - sent.uptimeNanoseconds) / 1000
        if accepted {
            stats.completed += 1
            _ = stats.latencies.record(micros)
        } else {
            stats.errors += 1
            if stats.firstError == nil { stats.firstError = String(String(buffer: line).prefix(300)) }
        }
        fill(context: context)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
        cycleTime = nil
    }

    private func now() -> NIODeadline {
        if let cycleTime { return cycleTime }
        let time = NIODeadline.now()
        cycleTime = time
        return time
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !isFinished {
            let missing = inFlight.count - head
            if missing > 0 {
                stats.errors += missing
                stats.firstError = stats.firstError ?? "connection closed with \(missing) requests unanswered"
            }
            finish()
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail("\(error)", context: context)
    }

    private func fill(context: ChannelHandlerContext) {
        if now() >= deadline {
            if head == inFlight.count {
                finish()
                context.close(promise: nil)
            }
            return
        }
        while inFlight.count - head < depth {
            sequence += 1
            send(workload.request(sequence, account: account, conversation: conversation), context: context)
        }
    }

    private func send(_ request: Request, context: ChannelHandlerContext) {
        inFlight.append((now(), request))
        context.write(wrapOutboundOut(request.line), promise: nil)
    }

    private func fail(_ message: String, context: ChannelHandlerContext) {
        stats.errors += 1
        stats.firstError = stats.firstError ?? message
        finish()
        context.close(promise: nil)
    }

    private func finish() {
        guard !isFinished else { return }
        isFinished = true
        done.succeed(stats)
    }
}
