import Synchronization

/// Fans committed messages out to the subscriptions of their recipients, in commit order, each once.
///
/// Publishing never waits for a subscriber: each subscription has a bounded buffer, and one that falls more than
/// its capacity behind is marked lagged and ended, so a slow reader costs bounded memory.
public final class MessageHub: MessageCommitObserving {
    private let subscriptions = Mutex<[Int64: [ObjectIdentifier: MessageSubscription]]>([:])
    private let onElsewhere: Mutex<(@Sendable ([MessageEvent]) -> Void)?>

    /// Creates a hub with no subscriptions.
    public init() {
        onElsewhere = Mutex(nil)
    }

    /// Calls `action` with every batch another daemon committed, before it is delivered (to charge its rates).
    public func onCommitsElsewhere(_ action: @escaping @Sendable ([MessageEvent]) -> Void) {
        onElsewhere.withLock { $0 = action }
    }

    /// Delivers `events` to their recipients' subscriptions.
    public func committed(_ events: [MessageEvent], elsewhere: Bool) {
        if elsewhere, let action = onElsewhere.withLock({ $0 }) { action(events) }
        for event in events {
            let targets = subscriptions.withLock { all in
                event.recipientIDs.flatMap { all[$0].map { Array($0.values) } ?? [] }
            }
            for subscription in targets { subscription.enqueue(event) }
        }
    }

    /// A new subscription to `userID`'s messages; it buffers from this moment on.
    public func subscribe(_ userID: Int64, capacity: Int = 1000) -> MessageSubscription {
        let subscription = MessageSubscription(userID: userID, capacity: capacity) { [weak self] ended in
            self?.remove(ended)
        }
        subscriptions.withLock { $0[userID, default: [:]][ObjectIdentifier(subscription)] = subscription }
        return subscription
    }

    /// How many subscriptions are live.
    public var subscriptionCount: Int { subscriptions.withLock { $0.values.reduce(0) { $0 + $1.count } } }

    private func remove(_ subscription: MessageSubscription) {
        subscriptions.withLock { all in
            all[subscription.userID]?.removeValue(forKey: ObjectIdentifier(subscription))
            if all[subscription.userID]?.isEmpty == true { all[subscription.userID] = nil }
        }
    }
}

/// One subscriber's messages: a bounded queue read one at a time.
public final class MessageSubscription: LiveSubscription {
    /// What `next()` hands out.
    public enum Delivery: Sendable, Equatable {
        /// The next message.
        case message(StoredMessage)
        /// The subscriber fell more than the capacity behind; its subscription has ended.
        case lagged
    }

    private struct State {
        var buffer: [StoredMessage] = []
        var isLagged = false
        var isEnded = false
        var waiter: CheckedContinuation<Delivery?, Never>?
    }

    /// The account whose messages it carries.
    public let userID: Int64
    private let capacity: Int
    private let state = Mutex(State())
    private let onEnd: @Sendable (MessageSubscription) -> Void

    init(userID: Int64, capacity: Int, onEnd: @escaping @Sendable (MessageSubscription) -> Void) {
        self.userID = userID
        self.capacity = capacity
        self.onEnd = onEnd
    }

    func enqueue(_ event: MessageEvent) {
        guard case .sent(let message, _) = event else { return }
        let (waiter, delivery, lagged) = state.withLock {
            state -> (CheckedContinuation<Delivery?, Never>?, Delivery?, Bool) in
            guard !state.isEnded, !state.isLagged else { return (nil, nil, false) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, .message(message), false)
            }
            state.buffer.append(message)
            if state.buffer.count > capacity {
                state.isLagged = true
                state.buffer = []
                return (nil, nil, true)
            }
            return (nil, nil, false)
        }
        waiter?.resume(returning: delivery)
        if lagged { onEnd(self) }
    }

    /// The next delivery; waits for one; nil once the subscription has ended.
    public func next() async -> Delivery? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> (Bool, Delivery?) in
                if state.isLagged {
                    state.isLagged = false
                    state.isEnded = true
                    return (true, .lagged)
                }
                if state.isEnded { return (true, nil) }
                if !state.buffer.isEmpty { return (true, .message(state.buffer.removeFirst())) }
                state.waiter = continuation
                return (false, nil)
            }
            if ready.0 { continuation.resume(returning: ready.1) }
        }
    }

    /// Ends the subscription; a waiting `next()` returns nil.
    public func cancel() {
        let waiter = state.withLock { state -> CheckedContinuation<Delivery?, Never>? in
            state.isEnded = true
            state.buffer = []
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
        onEnd(self)
    }
}
