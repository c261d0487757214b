// @MemberwiseInit
/// What every handler gets besides its params: the connection it runs for.
public struct RequestContext: Sendable {
    /// The connection's state.
    public let session: ConnectionSession
}
