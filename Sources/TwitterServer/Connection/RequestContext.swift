/// What every handler gets besides its params: the connection it runs for.
public struct RequestContext: Sendable {
    /// The connection's state.
    public let session: ConnectionSession

    /// Creates a context for `session`.
    public init(session: ConnectionSession) {
        self.session = session
    }
}
