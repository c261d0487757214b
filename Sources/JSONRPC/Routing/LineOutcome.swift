// These types live outside the generic RequestProcessor on purpose: nested in it they would be generic
// too, and unspecialised code would look up their metadata at run time on every request.

/// What one line produced.
public struct LineOutcome: Sendable {
    /// The response line without its newline; nil when nothing is to be sent.
    public var response: [UInt8]?
    /// How many requests and notifications the line held.
    public var requestCount: Int
}

/// What answering a line at once came to.
public enum LineAttempt: Sendable {
    /// The line is answered (or needs no answer).
    case answered(LineOutcome)
    /// The line holds a call that has to wait; `RequestProcessor.respond(to:context:)` answers it.
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
        case request(RPCRequest)
        case batch([JSONValue])
    }

    let content: Content
}

/// How far a call could go without waiting.
enum CallNow {
    case answered(Result<[UInt8], RPCError>)
    case started(StartedCall)
    case mustWait
}
