// These types live outside the generic RequestProcessor on purpose: nested in it they would be generic
// too, and unspecialised code would look up their metadata at run time on every request.

/// What one line produced.
public struct LineOutcome: Sendable {
    /// The response line without its newline, in parts; nil when nothing is to be sent.
    public var line: ResponseLine?
    /// How many requests and notifications the line held.
    public var requestCount: Int

    /// The response line without its newline, in one array; nil when nothing is to be sent.
    public var response: [UInt8]? { line?.joined }

    init(line: ResponseLine?, requestCount: Int) {
        self.line = line
        self.requestCount = requestCount
    }

    init(response: [UInt8]?, requestCount: Int) {
        self.init(line: response.map { ResponseLine(head: $0) }, requestCount: requestCount)
    }
}

/// A response line as the parts it is written from, so that a connection writes a result into its own buffer
/// straight from the bytes the handler gave (a kept page, shared with a cache), not through a line copied
/// together first: `head`, then `result`, then `}` when there is a result.
///
/// Measured with bench/instructions.sh (callgrind, one seeded database; docs/BENCHMARKS.md, "Instructions per
/// request"), with `JSONWritable.writtenJSON`: tweets.fetch limit 20 went from 101,080 to 76,104 instructions a
/// request and timeline.home limit 20 from 120,115 to 82,582, two copies of a 14 KB page fewer; a ping, whose
/// result is small and still copied into one line, from 8,082 to 8,446.
public struct ResponseLine: Sendable {
    /// The line up to its result (`{"id":…,"jsonrpc":"2.0","result":`), or the whole line when it has none.
    public let head: [UInt8]
    /// The encoded result; empty for a line without one.
    public let result: [UInt8]

    /// A line without a result part: an error, a batch's answers.
    init(head: [UInt8]) {
        self.head = head
        self.result = []
    }

    /// The response of `id` with the encoded `result`.
    init(id: RPCID, result: [UInt8]) {
        var head: [UInt8] = []
        // The envelope before a result is under 64 bytes for any usual id.
        head.reserveCapacity(64)
        ResponseWriter.writeResultHead(id: id, into: &head)
        self.head = head
        self.result = result
    }

    /// The size from which a result is written from its own bytes rather than copied into the line first.
    public static let largeResult = 1024

    /// Whether the line closes with `}` after its result.
    public var hasResult: Bool { !result.isEmpty }

    /// How many bytes the line holds.
    public var count: Int { head.count + result.count + (hasResult ? 1 : 0) }

    /// The line in one array.
    public var joined: [UInt8] {
        guard hasResult else { return head }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        bytes.append(contentsOf: head)
        bytes.append(contentsOf: result)
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}

/// How far a line got without waiting.
public enum LineAttempt: Sendable {
    /// The line is answered (or needs no answer).
    case answered(LineOutcome)
    /// The line must be awaited: an awaited call, an immediate one that could not answer at once, or a batch;
    /// `RequestProcessor.respond(to:context:)` answers it.
    case mustWait(PendingLine)
    /// The line's call has taken effect and only its result is awaited; `RequestProcessor.finish(_:context:)`
    /// answers it.
    case started(StartedCall)
}

/// A call that has been started: what is left is waiting for its result.
public struct StartedCall: Sendable {
    let request: RPCRequest
    let wait: @Sendable () async throws -> [UInt8]
}

/// A parsed line that could not be answered without waiting.
public struct PendingLine: Sendable {
    enum Content: Sendable {
        /// A call, authorised and with checked params, to await.
        case call(RPCRequest, @Sendable () async throws -> [UInt8])
        case batch([JSONValue])
    }

    let content: Content
}

/// Where the one dispatch left a call.
enum Dispatched {
    case answered(Result<[UInt8], RPCError>)
    case started(@Sendable () async throws -> [UInt8])
    case mustWait(@Sendable () async throws -> [UInt8])
}
