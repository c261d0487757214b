import Synchronization

/// Where the stores publish their commits, in commit order, and from where the read model takes them.
///
/// A store's writer only appends here: it never runs the read model's code, so its write lock is not held
/// while caches and live streams are brought up to date. The one subscriber is told of every commit, in commit
/// order, by whoever delivers first: a delivery started off the writer's thread as soon as something is
/// published, or a reader that finds commits not yet delivered (`deliver()`), so that a page read after a write
/// has been answered holds that write. Another daemon's commits (`committedElsewhere`) come from the commit
/// feed's reader, not a writer, and are delivered at once: the feed acknowledges them only once they are applied.
public final class CommitPublisher: CommitObserving {
    private struct Commit {
        var events: [CommitEvent]
        var elsewhere: Bool
    }

    /// Published and not yet delivered, oldest first.
    private let published = Mutex<[Commit]>([])
    /// How many commits wait in `published`: read on every read, so a reader finds out without a lock.
    private let undelivered = Atomic<Int>(0)
    /// The subscriber; held while delivering, so that one deliverer at a time tells it, in order.
    private let subscriber = Mutex<(any CommitObserving)?>(nil)

    /// Starts a delivery off the writer's thread.
    private let startDelivery: @Sendable (_ delivery: @escaping @Sendable () -> Void) -> Void

    /// A publisher with no subscriber yet: what is published waits for one. `startDelivery` runs a delivery off
    /// the writer's thread, in a task by default; a test holds it back to see that a reader delivers.
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
        deliver()
    }

    /// This daemon's commit, published by its writer.
    public func committed(_ events: [CommitEvent]) {
        if publish(Commit(events: events, elsewhere: false)) {
            startDelivery { self.deliver() }
        }
    }

    /// Another daemon's commit, read from the shared log: delivered before this returns.
    public func committedElsewhere(_ events: [CommitEvent]) {
        _ = publish(Commit(events: events, elsewhere: true))
        deliver()
    }

    /// Whether published commits wait to be delivered.
    public var hasUndelivered: Bool { undelivered.load(ordering: .acquiring) > 0 }

    /// Delivers every commit published and not yet delivered, in order, on the caller's thread. The subscriber
    /// must not call it back.
    public func deliver() {
        subscriber.withLock { subscriber in
            guard let subscriber else { return }
            while true {
                let commits = published.withLock { waiting in
                    defer { waiting.removeAll(keepingCapacity: true) }
                    return waiting
                }
                guard !commits.isEmpty else { return }
                for commit in commits {
                    if commit.elsewhere {
                        subscriber.committedElsewhere(commit.events)
                    } else {
                        subscriber.committed(commit.events)
                    }
                }
                undelivered.subtract(commits.count, ordering: .releasing)
            }
        }
    }

    /// Appends `commit`; true when nothing else was waiting, so that a delivery must be started.
    private func publish(_ commit: Commit) -> Bool {
        undelivered.add(1, ordering: .releasing)
        return published.withLock { waiting in
            waiting.append(commit)
            return waiting.count == 1
        }
    }
}
