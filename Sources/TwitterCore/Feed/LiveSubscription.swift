/// A live subscription a connection holds, whatever it streams: ended when the connection closes, its login
/// ends (logout, revocation, expiry) or the client unsubscribes.
public protocol LiveSubscription: AnyObject, Sendable {
    /// Ends the subscription; a waiting reader is woken with the end.
    func cancel()
}
