import JSONRPC
import TwitterAPI
import TwitterCore
import TwitterRuntime

/// What carries one subscription's events to its connection: the tweet streams' `SubscriptionForwarder`, the
/// notification stream's `NotificationForwarder` and the messages' `MessageForwarder`. The connection starts it once
/// the subscribe answer is out.
package protocol StreamForwarding: Sendable {
    /// The subscription's id on its connection.
    var id: Int { get }
    /// The hub subscription it reads, which the connection ends with the login.
    var liveSubscription: any LiveSubscription { get }
    /// Sends notification lines through `send` until the subscription ends, lags, or the connection fails.
    func run(send: @Sendable ([UInt8]) async throws -> Void) async
}

extension StreamForwarding {
    /// The line that ends a stream that fell behind: `kind` (`tweets.lagged`…) naming the id to resume from.
    func lagged(_ kind: RPCNotification<API.Tweets.Lagged>, resumeFrom: Int64) throws -> [UInt8] {
        try notificationLine(kind, .init(subscription: id, resumeFrom: resumeFrom))
    }
}

/// A forwarder of the tweet hub's commit events: the tweet streams' and the notification stream's, which differ only
/// in what they catch up on and what they make of an event.
protocol CommitHubForwarding: StreamForwarding {
    /// The hub subscription it reads.
    var subscription: CommitSubscription { get }
}

extension CommitHubForwarding {
    var liveSubscription: any LiveSubscription { subscription }

    /// Runs the stream: first `catchUp`, which sends what the database holds and returns the last id it sent, then
    /// each live event through `forward`, which moves that id on as it sends (the live events up to it are repeats),
    /// until the subscription ends, or lags: then `lagged` names the id to resume from and the stream ends. A send
    /// that fails, the connection gone, ends the subscription.
    func forwardEvents(
        lagged kind: RPCNotification<API.Tweets.Lagged>, send: @Sendable ([UInt8]) async throws -> Void,
        catchUp: () async throws -> Int64,
        forward: (CommitEvent, _ lastDelivered: inout Int64) async throws -> Void
    ) async {
        do {
            var lastDelivered = try await catchUp()
            while let delivery = await subscription.next() {
                switch delivery {
                case .event(let event):
                    try await forward(event, &lastDelivered)
                case .lagged:
                    try await send(lagged(kind, resumeFrom: lastDelivered))
                    return
                }
            }
        } catch {
            subscription.cancel()
        }
    }
}

/// One JSON-RPC notification line.
func notificationLine<Params: Encodable>(_ kind: RPCNotification<Params>, _ params: Params) throws -> [UInt8] {
    var line: [UInt8] = []
    ResponseWriter.writeNotification(method: kind.name, encodedParams: try ResultEncoder.encode(params), into: &line)
    return line
}
