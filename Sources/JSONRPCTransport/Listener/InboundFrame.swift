import NIOCore

/// What the framing handler passes to the connection handler: lines to answer, or the reason to stop.
enum InboundFrame: Sendable {
    /// The complete lines of one read, without their `\n`: answered together and written with one flush.
    case lines([[UInt8]])
    /// A line grew past the limit; the connection gets one error and closes.
    case lineTooLong(limit: Int)
    /// A line was started and not finished in time.
    case partialLineTimedOut
    /// Nothing was sent or received for the idle timeout.
    case idle
    /// The client shut down its writing side; what it sent before is still answered.
    case endOfInput
}
