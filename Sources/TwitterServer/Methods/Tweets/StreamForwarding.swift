import JSONRPC
import TwitterCore

/// What carries one subscription's events to its connection: the tweet streams' `SubscriptionForwarder` and
/// the notification stream's `NotificationForwarder`. The connection starts it once the subscribe answer is out.
protocol StreamForwarding: Sendable {
    /// The subscription's id on its connection.
    var id: Int { get }
    /// The hub subscription it reads, which the connection ends with the login.
    var liveSubscription: any LiveSubscription { get }
    /// Sends notification lines through `send` until the subscription ends, lags, or the connection fails.
    func run(send: @Sendable ([UInt8]) async throws -> Void) async
}

extension SubscriptionForwarder: StreamForwarding {
    var liveSubscription: any LiveSubscription { subscription }
}

extension NotificationForwarder {
    var liveSubscription: any LiveSubscription { subscription }
}

/// One JSON-RPC notification line.
func notificationLine<Params: Encodable>(_ kind: RPCNotification<Params>, _ params: Params) throws -> [UInt8] {
    var line: [UInt8] = []
    ResponseWriter.writeNotification(method: kind.name, encodedParams: try ResultEncoder.encode(params), into: &line)
    return line
}
