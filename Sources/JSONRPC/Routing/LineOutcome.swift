// These types live outside the generic RequestProcessor on purpose: nested in it they would be generic
// too, and unspecialised code would look up their metadata at run time on every request.

/// What one line produced.
public struct LineOutcome: Sendable {
    /// The response line without its newline; nil when nothing is to be sent.
    public var response: [UInt8]?
    /// How many requests and notifications the line held.
    public var requestCount: Int
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
