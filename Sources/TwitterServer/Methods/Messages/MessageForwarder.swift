import JSONRPC
import TwitterAPI
import TwitterCore

/// Carries one account's messages to its connection as `messages.new`, in commit order, each once. Falling
/// more than the capacity behind ends it with `messages.lagged`; the connection ends it with the login.
struct MessageForwarder: StreamForwarding {
    let id: Int
    let subscription: MessageSubscription
    let services: MessageServices

    var liveSubscription: any LiveSubscription { subscription }

    func run(send: @Sendable ([UInt8]) async throws -> Void) async {
        var lastDelivered: Int64 = 0
        do {
            while let delivery = await subscription.next() {
                switch delivery {
                case .message(let message):
                    guard message.id > lastDelivered else { continue }
                    lastDelivered = message.id
                    try await send(
                        notificationLine(
                            API.Messages.new, .init(subscription: id, message: try services.shown(message))))
                case .lagged:
                    try await send(lagged(API.Messages.lagged, resumeFrom: lastDelivered))
                    return
                }
            }
        } catch {
            subscription.cancel()
        }
    }
}
