// @MemberwiseInit
/// What every handler of the open group gets besides its params: the connection it runs for, logged in or not.
/// The transport makes one per connection; the logged-in and admin groups enter their own contexts from it.
public struct RequestContext: Sendable {
    /// The connection's state.
    public let session: ConnectionSession
}
