/// What a handler of the admin group gets besides its params: the connection and the admin's login, let in by
/// the access rule (`AccessMiddleware`), which logs a refused call.
public struct AdminContext: Sendable {
    /// The connection's state.
    public let session: ConnectionSession
    /// The admin's login.
    public let login: SessionLogin

    /// The admin's account id.
    public var userID: Int64 { login.userID }
}
