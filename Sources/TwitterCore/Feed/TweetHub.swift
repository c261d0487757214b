import Synchronization

/// Fans commits' events out to subscriptions, in the order they are published.
///
/// Publishing never waits for a subscriber: each subscription has a bounded buffer, and one that falls more
/// than its capacity behind is marked lagged and dropped, so a slow reader costs bounded memory.
public final class TweetHub: Sendable {
    private let subscriptions = Mutex<[ObjectIdentifier: TweetSubscription]>([:])

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
    /// (`TweetSubscription.resolve(following:)`).
    public func subscribe(_ timeline: Timeline, capacity: Int = 1000) -> TweetSubscription {
        switch timeline {
        case .home, .list: add(.resolving(timeline, kept: []), capacity: capacity)
        case .everyone, .author, .tag: add(.filtering(TimelineFilter(timeline)), capacity: capacity)
        }
    }

    /// A new subscription to the notifications of `recipientID`; it buffers from this moment on.
    public func subscribeToNotifications(of recipientID: Int64, capacity: Int = 1000) -> TweetSubscription {
        add(.notifications(recipientID: recipientID), capacity: capacity)
    }

    private func add(_ selection: TweetSubscription.Selection, capacity: Int) -> TweetSubscription {
        let subscription = TweetSubscription(selection: selection, capacity: capacity) { [weak self] ended in
            self?.remove(ended)
        }
        subscriptions.withLock { $0[ObjectIdentifier(subscription)] = subscription }
        return subscription
    }

    /// How many subscriptions are live.
    public var subscriptionCount: Int { subscriptions.withLock { $0.count } }

    private func remove(_ subscription: TweetSubscription) {
        _ = subscriptions.withLock { $0.removeValue(forKey: ObjectIdentifier(subscription)) }
    }
}
