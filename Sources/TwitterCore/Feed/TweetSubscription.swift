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

    /// How events are chosen: a home stream keeps every event until it knows whom its owner follows.
    private enum Selection {
        /// Keeping every event, to be filtered once `resolve(following:)` gives the follow set.
        case resolving(kept: [TweetEvent])
        /// Filtering each event as it comes.
        case filtering(TimelineFilter)
    }

    private struct State {
        var selection: Selection
        var buffer: [TweetEvent] = []
        var head = 0
        var isLagged = false
        var isEnded = false
        var waiter: CheckedContinuation<Delivery?, Never>?
    }

    /// The timeline streamed.
    public let timeline: Timeline
    private let capacity: Int
    private let state: Mutex<State>
    private let onEnd: @Sendable (TweetSubscription) -> Void

    init(timeline: Timeline, capacity: Int, onEnd: @escaping @Sendable (TweetSubscription) -> Void) {
        self.timeline = timeline
        self.capacity = capacity
        self.onEnd = onEnd
        if case .home = timeline {
            state = Mutex(State(selection: .resolving(kept: [])))
        } else {
            state = Mutex(State(selection: .filtering(TimelineFilter(timeline))))
        }
    }

    /// Gives a home stream whom its owner follows, read after the stream began: the events kept meanwhile are
    /// filtered in order (their follow events applied again on top, which changes nothing already read).
    public func resolve(following: Set<Int64>) {
        enqueue([], resolvingWith: TimelineFilter(timeline, following: following))
    }

    func enqueue(_ events: [TweetEvent]) {
        enqueue(events, resolvingWith: nil)
    }

    private func enqueue(_ events: [TweetEvent], resolvingWith resolved: TimelineFilter?) {
        let (waiter, delivery, lagged) = state.withLock {
            state -> (CheckedContinuation<Delivery?, Never>?, Delivery?, Bool) in
            guard !state.isEnded, !state.isLagged else { return (nil, nil, false) }
            var matching: [TweetEvent]
            switch (state.selection, resolved) {
            case (.resolving(let kept), nil):
                // Likes and counts never reach a stream; only what a filter may need is kept.
                let kept = kept + events.filter(TimelineFilter.mayConcern)
                state.selection = .resolving(kept: kept)
                matching = []
                if kept.count > capacity { state.isLagged = true }
            case (.resolving(let kept), var filter?):
                matching = (kept + events).filter { filter.admits($0) }
                state.selection = .filtering(filter)
            case (.filtering(var filter), _):
                matching = events.filter { filter.admits($0) }
                state.selection = .filtering(filter)
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
