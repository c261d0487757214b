/// A notification the daemon pushes, as both sides know it: its method name and the type of its params.
public struct RPCNotification<Params: Decodable & Sendable>: Sendable {
    /// The notification's method, such as `tweets.new`.
    public let name: String

    /// Declares a notification.
    public init(_ name: String) {
        self.name = name
    }
}
