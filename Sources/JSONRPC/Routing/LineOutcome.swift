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
/// Two copies of a 14 KB page fewer a page answered, about a quarter of a page's instructions (bench/analysis.md,
/// "Measured in the code's history"). Every result is kept apart, a ping's too: since the connection copies the
/// parts into its buffer in one write (`AnswerWriter.append`), that costs a ping 117 instructions fewer than the
/// line copied together first (callgrind; copied into the buffer part by part, it had cost 400 more).
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

/// What reading a line came to.
public enum LineRead: Sendable {
    /// The line is answered (or needs no answer): it was blank, not JSON, or not a request.
    case answered(LineOutcome)
    /// One call, to start with `RequestProcessor.start(_:context:limits:)`.
    case call(RPCRequest)
    /// A batch, to answer with `RequestProcessor.respond(toBatch:context:)`.
    case batch([JSONValue])
}

/// What reading and starting a line at once came to (`RequestProcessor.attempt`).
public enum LineAttempt: Sendable {
    /// Answered, or needing no answer: the line was blank, not a request, or its call was refused.
    case answered(LineOutcome)
    /// A call let in, its handler to run with `RequestProcessor.finish(_:context:limits:)`.
    case running(RunningCall)
    /// A batch, to answer with `RequestProcessor.respond(toBatch:context:)`.
    case batch([JSONValue])
}

/// What starting a call came to.
public enum CallStart: Sendable {
    /// Answered at once: no such method, or refused by a middleware or by the params check.
    case answered(LineOutcome)
    /// Let in, its handler to run with `RequestProcessor.finish(_:context:)`.
    case running(RunningCall)
}

/// A call found and let in so far, whose handler is still to run.
public struct RunningCall: Sendable {
    /// The request.
    public let request: RPCRequest
    /// Its method, as registered.
    public let method: RegisteredMethod
    /// The checked params, or nil when a preparation must run first (the params are checked after it).
    let members: [String: JSONValue]?
    /// What a middleware runs around the rest of the call, and the index of the middleware after it.
    let preparation: (run: Preparation, next: Int)?

    /// Whether the call is ready to run its handler with nothing to wait for first: only then may a connection
    /// start a call of a method that shares commits (`MethodDescriptor.sharesCommits`) beside the one before.
    public var isReady: Bool { preparation == nil }
}
