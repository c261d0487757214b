import Synchronization
import TwitterCore

/// One subscriber's view of the hub: a bounded queue of events, read one at a time.
public final class CommitSubscription: LiveSubscription {
    /// What `next()` hands out.
    public enum Delivery: Sendable, Equatable {
        /// The next event.
        case event(CommitEvent)
        /// The subscriber fell more than the capacity behind; its subscription has ended.
        case lagged
    }

    /// How events are chosen: a home stream keeps every event until it knows whom its owner follows, a list
    /// stream until it knows the list's members.
    enum Selection {
        /// Keeping every event of a home stream (or a list stream), to be filtered once `resolve(following:)`
        /// gives the follow set (the members).
        case resolving(Timeline, kept: [CommitEvent])
        /// Filtering each event as it comes.
        case filtering(TimelineFilter)
        /// One account's new notifications.
        case notifications(recipientID: Int64)
        /// The direct messages that reach one account.
        case messages(recipientID: Int64)
    }

    private struct State {
        var selection: Selection
        var buffer: [CommitEvent] = []
        var head = 0
        var isLagged = false
        var isEnded = false
        var waiter: CheckedContinuation<Delivery?, Never>?
    }

    private let capacity: Int
    private let state: Mutex<State>
    private let onEnd: @Sendable (CommitSubscription) -> Void

    init(selection: Selection, capacity: Int, onEnd: @escaping @Sendable (CommitSubscription) -> Void) {
        self.capacity = capacity
        self.onEnd = onEnd
        state = Mutex(State(selection: selection))
    }

    /// Gives a home stream whom its owner follows (a list stream its members), read after the stream began: the
    /// events kept meanwhile are filtered in order (their follow or membership events applied again on top,
    /// which changes nothing already read).
    public func resolve(following: Set<Int64>) {
        enqueue([], resolvingWith: following)
    }

    func enqueue(_ events: [CommitEvent]) {
        enqueue(events, resolvingWith: nil)
    }

    private func enqueue(_ events: [CommitEvent], resolvingWith following: Set<Int64>?) {
        let (waiter, delivery, lagged) = state.withLock {
            state -> (CheckedContinuation<Delivery?, Never>?, Delivery?, Bool) in
            guard !state.isEnded, !state.isLagged else { return (nil, nil, false) }
            var matching: [CommitEvent]
            switch (state.selection, following) {
            case (.resolving(let timeline, let kept), nil):
                // Likes and counts never reach a stream; only what a filter may need is kept.
                let kept = kept + events.filter(TimelineFilter.mayConcern)
                state.selection = .resolving(timeline, kept: kept)
                matching = []
                if kept.count > capacity { state.isLagged = true }
            case (.resolving(let timeline, let kept), let following?):
                var filter = TimelineFilter(timeline, following: following)
                matching = (kept + events).filter { filter.admits($0) }
                state.selection = .filtering(filter)
            case (.filtering(var filter), _):
                matching = events.filter { filter.admits($0) }
                state.selection = .filtering(filter)
            case (.notifications(let recipient), _):
                matching = events.filter { event in
                    if case .account(.notified(_, recipient)) = event { true } else { false }
                }
            case (.messages(let recipient), _):
                matching = events.filter { event in
                    if case .message(let message) = event { message.recipientIDs.contains(recipient) } else { false }
                }
            }
            if state.isLagged {
                matching = []
                state.buffer = []
                state.head = 0
            }
            guard !matching.isEmpty || state.isLagged else { return (nil, nil, false) }
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
