import Synchronization

/// How a write says that it has taken its place in the order its effects will have, before it waits for them.
///
/// The server runs a connection's calls one after another, each to its answer, which keeps a client's
/// pipelined requests in order; a write queued for a shared commit (a post) would then commit alone. So the
/// server lends each call a `WriteOrder` ticket (a task-local), and a store that queues a write in its commit
/// order, before it first suspends, stamps the ticket (`tookPlace()`): the next call of the same method may
/// then start at once and queue behind it, in order, sharing its commit. A store never needs to know who asks.
public final class WriteOrder: Sendable {
    private let placed = Atomic<Bool>(false)

    /// A ticket not yet stamped.
    public init() {}

    /// Whether the call holding this ticket has queued a write in its commit order.
    public var hasTakenPlace: Bool { placed.load(ordering: .acquiring) }

    /// The ticket of the call running in this task, if the server lent it one.
    @TaskLocal public static var current: WriteOrder?

    /// Says that the running call has queued its write in the commit order, ahead of anything queued after:
    /// called by a store at once after queuing it, before the call first suspends.
    public static func tookPlace() {
        current?.placed.store(true, ordering: .releasing)
    }
}
