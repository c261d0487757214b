/// What a handler of the logged-in group gets besides its params: the connection and the login it runs as, so
/// that the type says there is one and no handler looks for it again.
public struct LoggedInContext: Sendable {
    /// The connection's state.
    public let session: ConnectionSession
    /// The login the access rule let in.
    public let login: SessionLogin

    /// The logged-in account's id.
    public var userID: Int64 { login.userID }
}
