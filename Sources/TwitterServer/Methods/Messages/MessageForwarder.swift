import JSONRPC
import TwitterAPI
import TwitterCore
import TwitterRuntime

/// Carries one account's messages to its connection as `messages.new`, in commit order, each once. Falling
/// more than the capacity behind ends it with `messages.lagged`; the connection ends it with the login.
struct MessageForwarder: CommitHubForwarding {
    let id: Int
    let subscription: CommitSubscription
    let services: MessageServices

    func run(send: @Sendable ([UInt8]) async throws -> Void) async {
        // Nothing to catch up on: a message stream starts live.
        await forwardEvents(lagged: API.Messages.lagged, send: send) {
            0
        } forward: { event, lastDelivered in
            // Only the sends that reach this account pass the filter.
            guard case .message(.sent(let message, _)) = event, message.id > lastDelivered else { return }
            lastDelivered = message.id
            try await send(
                notificationLine(API.Messages.new, .init(subscription: id, message: try services.shown(message))))
        }
    }
}
