/// Sent down every connection's pipeline when the daemon begins a graceful shutdown; the connection's state
/// machine closes it once everything it received is answered.
public struct DrainEvent: Sendable {
    /// The event.
    public init() {}
}
