import Synchronization
import TwitterCore

/// Where the stores publish their commits, in commit order, and from where the read model takes them.
///
/// A store's writer only appends here: it never runs the read model's code, so its write lock is not held
/// while caches and live streams are brought up to date. One delivery task at a time tells the one subscriber of
/// every commit, in commit order: it is started off the writer's thread when something is published and none
/// runs, and it ends once nothing waits. Each commit has a version, its number in publishing order; a reader
/// that must see what was answered before it began (`waitUntilApplied`) waits until the subscriber has been told
/// every commit published so far, woken by the delivery, without polling and without delivering anything itself.
/// Another daemon's commits (`committedElsewhere`) come from the commit feed's reader, not a writer, and are
/// delivered before the call returns, behind whatever waited: the feed acknowledges them only once applied.
public final class CommitPublisher: CommitObserving {
    private struct Commit {
        var events: [CommitEvent]
        var elsewhere: Bool
    }

    private struct State {
        /// Published and not yet delivered, oldest first.
        var waiting: [Commit] = []
        /// Whether a delivery task runs (or is about to): the next one starts once it has ended.
        var isDelivering = false
        /// Readers waiting for a version to be applied, each resumed by the delivery that applies it.
        var readers: [(version: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    /// The version of the newest commit published: read before every read, without a lock.
    private let published = Atomic<Int>(0)
    /// The version of the newest commit the subscriber has been told of.
    private let applied = Atomic<Int>(0)
    /// The subscriber; held while delivering, so that one deliverer at a time tells it, in order.
    private let subscriber = Mutex<(any CommitObserving)?>(nil)

    /// Starts the delivery task off the writer's thread.
    private let startDelivery: @Sendable (_ delivery: @escaping @Sendable () -> Void) -> Void

    /// A publisher with no subscriber yet: what is published waits for one. `startDelivery` runs the delivery
    /// off the writer's thread, in a task by default; a test holds it back to see that a reader waits for it.
    public init(
        startDelivery: @escaping @Sendable (_ delivery: @escaping @Sendable () -> Void) -> Void = { delivery in
            Task { delivery() }
        }
    ) {
        self.startDelivery = startDelivery
    }

    /// Tells `subscriber` of every commit from now on (and of those waiting).
    public func subscribe(_ subscriber: any CommitObserving) {
        self.subscriber.withLock { $0 = subscriber }
        deliver(asTheDeliveryTask: false)
    }

    /// This daemon's commit, published by its writer: the delivery task tells the subscriber.
    public func committed(_ events: [CommitEvent]) {
        let start = state.withLock { state -> Bool in
            state.waiting.append(Commit(events: events, elsewhere: false))
            published.add(1, ordering: .releasing)
            guard !state.isDelivering else { return false }
            state.isDelivering = true
            return true
        }
        if start { startDelivery { self.deliver(asTheDeliveryTask: true) } }
    }

    /// Another daemon's commit, read from the shared log: delivered before this returns.
    public func committedElsewhere(_ events: [CommitEvent]) {
        state.withLock { state in
            state.waiting.append(Commit(events: events, elsewhere: true))
            published.add(1, ordering: .releasing)
        }
        deliver(asTheDeliveryTask: false)
    }

    /// The version of the newest commit published.
    public var version: Int { published.load(ordering: .acquiring) }

    /// Whether the subscriber has been told of every commit published so far: two loads, no lock.
    public var isApplied: Bool { applied.load(ordering: .acquiring) >= published.load(ordering: .acquiring) }

    /// Returns once the subscriber has been told of the commit of `version` and of every one before it (at once
    /// when it has). The delivery task wakes the reader; nothing is delivered on the reader's task.
    public func waitUntilApplied(_ version: Int) async {
        guard applied.load(ordering: .acquiring) < version else { return }
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                // Checked again under the lock the delivery takes to wake readers, after moving `applied` on.
                guard applied.load(ordering: .acquiring) < version else { return true }
                state.readers.append((version, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Returns once the subscriber has been told of every commit published before this call: what a read that
    /// must hold every answered write waits for.
    public func waitUntilApplied() async {
        await waitUntilApplied(version)
    }

    /// Delivers every commit waiting, in order, on the caller's thread; the subscriber must not call it back. The
    /// delivery task ends its turn here, under the lock a writer checks, so a commit published meanwhile starts
    /// the next one. The readers a batch's delivery satisfied are taken under the same lock as the next batch.
    private func deliver(asTheDeliveryTask: Bool) {
        subscriber.withLock { subscriber in
            var delivered: Int?
            while true {
                let (commits, woken) = state.withLock { state -> ([Commit], [CheckedContinuation<Void, Never>]) in
                    let woken = delivered.map { Self.takeReaders(upTo: $0, from: &state) } ?? []
                    guard subscriber != nil, !state.waiting.isEmpty else {
                        if asTheDeliveryTask { state.isDelivering = false }
                        return ([], woken)
                    }
                    defer { state.waiting.removeAll(keepingCapacity: true) }
                    return (state.waiting, woken)
                }
                for reader in woken { reader.resume() }
                guard let subscriber, !commits.isEmpty else { return }
                for commit in commits {
                    if commit.elsewhere {
                        subscriber.committedElsewhere(commit.events)
                    } else {
                        subscriber.committed(commit.events)
                    }
                }
                // Moved on before the readers are taken: one that checks again under the lock then finds it.
                delivered = applied.add(commits.count, ordering: .releasing).newValue
            }
        }
    }

    /// Takes the readers waiting for `version` or an earlier one out of `state`.
    private static func takeReaders(upTo version: Int, from state: inout State) -> [CheckedContinuation<Void, Never>] {
        guard !state.readers.isEmpty else { return [] }
        var woken: [CheckedContinuation<Void, Never>] = []
        state.readers.removeAll { reader in
            guard reader.version <= version else { return false }
            woken.append(reader.continuation)
            return true
        }
        return woken
    }
}
