import Synchronization

/// One subscriber's view of the hub: a bounded queue of events, read one at a time.
public final class TweetSubscription: Sendable {
    /// What `next()` hands out.
    public enum Delivery: Sendable, Equatable {
        /// The next event.
        case event(TweetEvent)
        /// The subscriber fell more than the capacity behind; its subscription has ended.
        case lagged
    }

    private struct State {
        var buffer: [TweetEvent] = []
        var head = 0
        var isLagged = false
        var isEnded = false
        var waiter: CheckedContinuation<Delivery?, Never>?
    }

    /// The author filter, if any.
    public let authorID: Int64?
    private let capacity: Int
    private let state = Mutex(State())
    private let onEnd: @Sendable (TweetSubscription) -> Void

    init(authorID: Int64?, capacity: Int, onEnd: @escaping @Sendable (TweetSubscription) -> Void) {
        self.authorID = authorID
        self.capacity = capacity
        self.onEnd = onEnd
    }

    func enqueue(_ events: [TweetEvent]) {
        let matching = authorID.map { author in events.filter { $0.authorID == author } } ?? events
        guard !matching.isEmpty else { return }
        let (waiter, delivery, lagged) = state.withLock {
            state -> (CheckedContinuation<Delivery?, Never>?, Delivery?, Bool) in
            guard !state.isEnded, !state.isLagged else { return (nil, nil, false) }
            state.buffer.append(contentsOf: matching)
            if state.buffer.count - state.head > capacity {
                state.isLagged = true
                state.buffer = []
                state.head = 0
            }
            guard let waiter = state.waiter else { return (nil, nil, state.isLagged) }
            state.waiter = nil
            return (waiter, Self.take(&state), state.isLagged)
        }
        waiter?.resume(returning: delivery)
        if lagged { onEnd(self) }
    }

    /// The next delivery; waits for one; nil once the subscription has ended.
    public func next() async -> Delivery? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> (Bool, Delivery?) in
                if state.head < state.buffer.count || state.isLagged || state.isEnded {
                    return (true, Self.take(&state))
                }
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
            state.head = 0
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
        onEnd(self)
    }

    private static func take(_ state: inout State) -> Delivery? {
        if state.isLagged {
            state.isLagged = false
            state.isEnded = true
            return .lagged
        }
        guard !state.isEnded, state.head < state.buffer.count else { return nil }
        let event = state.buffer[state.head]
        state.head += 1
        if state.head == state.buffer.count {
            state.buffer.removeAll(keepingCapacity: true)
            state.head = 0
        }
        return .event(event)
    }
}
