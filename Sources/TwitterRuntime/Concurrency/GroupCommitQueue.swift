import Synchronization

/// The queue of a group commit, in either store: writes wait here while a batch is being committed, and the
/// next batch takes everything that waited meanwhile, so concurrent posts share one transaction and one flush.
///
/// The first write to find no commit running leads: its caller starts the commit loop, which takes batches
/// until `nextBatch` finds the queue empty and ends it; the next write to arrive then leads again. Every write,
/// the leader's included, learns its own outcome from its slot once its batch is committed.
///
/// Inlinable like `OutcomeSlot`, so that each store specializes it and no post looks generic metadata up.
public final class GroupCommitQueue<Item: Sendable, Outcome: Sendable>: Sendable {
    /// A queued write and the slot its caller waits on.
    public struct Waiting: Sendable {
        /// The write.
        public let item: Item
        /// Where its outcome goes.
        public let outcome: OutcomeSlot<Outcome>

        @inlinable init(item: Item, outcome: OutcomeSlot<Outcome>) {
            self.item = item
            self.outcome = outcome
        }
    }

    @usableFromInline
    struct State {
        @usableFromInline var queue: [Waiting] = []
        @usableFromInline var isCommitting = false

        @inlinable init() {}
    }

    @usableFromInline let state = Mutex(State())
    /// The most writes in one batch; a larger burst commits in several.
    public let maximumBatch: Int

    /// An empty queue whose batches hold at most `maximumBatch` writes.
    @inlinable public init(maximumBatch: Int) {
        self.maximumBatch = max(1, maximumBatch)
    }

    /// Queues `item`; returns the slot its outcome will be set in, and whether the caller leads, that is, must
    /// start the commit loop because none is running.
    @inlinable public func enqueue(_ item: Item) -> (outcome: OutcomeSlot<Outcome>, leads: Bool) {
        let outcome = OutcomeSlot<Outcome>()
        let leads = state.withLock { state -> Bool in
            state.queue.append(Waiting(item: item, outcome: outcome))
            guard !state.isCommitting else { return false }
            state.isCommitting = true
            return true
        }
        return (outcome, leads)
    }

    /// Whether no write waits for a batch now; the next may arrive the moment after.
    @inlinable public var isEmpty: Bool {
        state.withLock { $0.queue.isEmpty }
    }

    /// The next batch to commit, oldest first; nil once the queue is empty, which ends the commit loop.
    @inlinable public func nextBatch() -> [Waiting]? {
        state.withLock { state in
            guard !state.queue.isEmpty else {
                state.isCommitting = false
                return nil
            }
            // Usually the whole queue: taken as it is rather than copied out under the lock the posters wait on.
            guard state.queue.count > maximumBatch else {
                let batch = state.queue
                state.queue = []
                return batch
            }
            let batch = Array(state.queue.prefix(maximumBatch))
            state.queue.removeFirst(batch.count)
            return batch
        }
    }
}
