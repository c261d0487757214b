import Synchronization
import TwitterCore

/// Fans commits' events out to subscriptions, in the order they are published: the one hub of every live
/// stream, of timelines, notifications and direct messages alike.
///
/// Publishing never waits for a subscriber: each subscription has a bounded buffer, and one that falls more
/// than its capacity behind is marked lagged and dropped, so a slow reader costs bounded memory.
public final class CommitHub: Sendable {
    private let subscriptions = Mutex<[ObjectIdentifier: CommitSubscription]>([:])

    /// Creates a hub with no subscriptions.
    public init() {}

    /// Delivers `events` to every matching subscription, in order.
    public func publish(_ events: [CommitEvent]) {
        guard !events.isEmpty else { return }
        let current = subscriptions.withLock { Array($0.values) }
        for subscription in current { subscription.enqueue(events) }
    }

    /// A new subscription to `timeline`; it buffers from this moment on. A home subscription shows nothing
    /// until it is given whom its owner follows, a list subscription until it is given the list's members
    /// (`CommitSubscription.resolve(following:)`).
    public func subscribe(_ timeline: Timeline, capacity: Int = 1000) -> CommitSubscription {
        switch timeline {
        case .home, .list: add(.resolving(timeline, kept: []), capacity: capacity)
        case .everyone, .author, .tag: add(.filtering(TimelineFilter(timeline)), capacity: capacity)
        }
    }

    /// A new subscription to the notifications of `recipientID`; it buffers from this moment on.
    public func subscribeToNotifications(of recipientID: Int64, capacity: Int = 1000) -> CommitSubscription {
        add(.notifications(recipientID: recipientID), capacity: capacity)
    }

    /// A new subscription to the direct messages that reach `recipientID`; it buffers from this moment on.
    public func subscribeToMessages(of recipientID: Int64, capacity: Int = 1000) -> CommitSubscription {
        add(.messages(recipientID: recipientID), capacity: capacity)
    }

    private func add(_ selection: CommitSubscription.Selection, capacity: Int) -> CommitSubscription {
        let subscription = CommitSubscription(selection: selection, capacity: capacity) { [weak self] ended in
            self?.remove(ended)
        }
        subscriptions.withLock { $0[ObjectIdentifier(subscription)] = subscription }
        return subscription
    }

    /// How many subscriptions are live.
    public var subscriptionCount: Int { subscriptions.withLock { $0.count } }

    private func remove(_ subscription: CommitSubscription) {
        _ = subscriptions.withLock { $0.removeValue(forKey: ObjectIdentifier(subscription)) }
    }
}
