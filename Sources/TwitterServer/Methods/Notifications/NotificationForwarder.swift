import JSONRPC
import TwitterAPI
import TwitterCore
import TwitterRuntime

/// Carries one account's notification stream to its connection: first the notifications since `sinceId` from
/// the database, then the live ones after them, each once, in id order, leaving out hidden accounts' as each
/// goes out. Falling more than `capacity` behind ends it with `notifications.lagged`, as the tweet streams do.
struct NotificationForwarder: CommitHubForwarding {
    let id: Int
    let subscription: CommitSubscription
    let sinceID: Int64?
    let recipient: Int64
    let services: TweetServices
    let capacity: Int

    func run(send: @Sendable ([UInt8]) async throws -> Void) async {
        await forwardEvents(lagged: API.Notifications.lagged, send: send) {
            try await catchUp(send: send)
        } forward: { event, lastDelivered in
            // Only this account's notifications pass the filter.
            guard case .account(.notified(let notification, _)) = event, notification.id > lastDelivered else { return }
            lastDelivered = notification.id
            // Checked as each goes out, so a mute or block takes effect at once.
            if let line = try await line(notification) { try await send(line) }
        }
    }

    private func catchUp(send: @Sendable ([UInt8]) async throws -> Void) async throws -> Int64 {
        guard let sinceID else { return 0 }
        let backlog = try await services.access.notifications(
            of: recipient, after: sinceID, limit: capacity + 1, in: services.notifications)
        guard backlog.read.count <= capacity else {
            try await send(lagged(API.Notifications.lagged, resumeFrom: sinceID))
            subscription.cancel()
            return Int64.max
        }
        for notification in try await services.marked(backlog.shown, for: recipient) {
            try await send(
                try notificationLine(API.Notifications.new, .init(subscription: id, notification: notification)))
        }
        return backlog.read.last?.id ?? sinceID
    }

    /// `notifications.new` with the recipient's marks on its tweet; nothing for a hidden account's.
    private func line(_ notification: ActivityNotification) async throws -> [UInt8]? {
        guard try await services.access.shows(notification, to: recipient),
            let shown = try await services.marked([notification], for: recipient).first
        else { return nil }
        return try notificationLine(API.Notifications.new, .init(subscription: id, notification: shown))
    }
}
