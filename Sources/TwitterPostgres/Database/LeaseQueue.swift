import Synchronization

/// Callers waiting for a pooled resource (a PostgreSQL connection), each given up after `timeout`, with no task
/// per call: a fixed set of workers, as many as the pool has resources, lease on the callers' behalf and hand
/// each resource to the oldest caller still waiting, and one watcher fails the callers whose deadline passed.
///
///     caller ── enqueue ──▶ pending ◀── takeOldest ── worker ◀── lease ── pool
///       ▲                      │                        │
///       │                      └─ deadline passed ──▶ watcher ── LeaseFailure.timedOut ──▶ caller
///       └────────── the resource, given back when the caller's body ends ──┘
///
/// postgres-nio 1.33's pool has no lease timeout, and a lease can only be given up by cancelling the task that
/// waits for it: racing a timer task against it cost two tasks per call. Here a caller waits on a continuation
/// that a worker resumes with the resource, or the watcher with `LeaseFailure.timedOut`. A worker that got its
/// resource after its caller gave up hands it to the next caller, or gives it back to the pool. The caller's
/// body runs in the caller's own task, so cancelling the caller cancels its queries as before; once handed a
/// resource, a caller keeps it as long as its body runs.
final class LeaseQueue<Resource: Sendable>: Sendable {
    /// How a worker leases: `use` runs while the resource is leased, and the lease ends when it returns.
    typealias Lease = @Sendable (_ use: (Resource) async -> Void) async throws -> Void

    /// What a caller is handed: the resource, and the continuation that gives it back to its worker.
    private struct Handover: Sendable {
        let resource: Resource
        let done: CheckedContinuation<Void, Never>
    }

    private struct Waiting {
        let id: UInt64
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Handover, any Error>
    }

    private struct State {
        /// Callers not yet handed a resource, oldest (and so soonest due) first.
        var pending: [Waiting] = []
        /// Workers waiting for a caller to lease for.
        var idle: [CheckedContinuation<Bool, Never>] = []
        /// Workers leasing, not yet holding a resource: the callers they will serve.
        var leasing = 0
        var nextID: UInt64 = 0
        var stopped = false

        /// Removes and returns the oldest waiting caller.
        mutating func takeOldest() -> Waiting? {
            pending.isEmpty ? nil : pending.removeFirst()
        }

        /// Removes and returns caller `id` if it still waits.
        mutating func cancel(_ id: UInt64) -> Waiting? {
            pending.firstIndex { $0.id == id }.map { pending.remove(at: $0) }
        }
    }

    private let state = Mutex(State())
    private let workers: Int
    private let timeout: Duration
    private let lease: Lease

    /// A queue of `workers` workers, each leasing with `lease`; callers wait at most `timeout` for a resource.
    init(workers: Int, timeout: Duration, lease: @escaping Lease) {
        self.workers = max(1, workers)
        self.timeout = timeout
        self.lease = lease
    }

    /// Runs the workers and the watcher until cancelled; then fails every caller still waiting, and every
    /// later one, with `LeaseFailure.stopped`.
    func run() async {
        await withTaskCancellationHandler {
            await withDiscardingTaskGroup { group in
                for _ in 0..<workers { group.addTask { await self.work() } }
                group.addTask { await self.watch() }
            }
        } onCancel: {
            stop()
        }
    }

    /// Runs `body` with a resource leased for it, waiting at most `timeout` for one; throws
    /// `LeaseFailure.timedOut` when none came in time, `CancellationError` when the caller was cancelled while
    /// waiting, and the lease's own error when leasing failed.
    func withResource<Result>(_ body: (Resource) async throws -> Result) async throws -> Result {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let handover = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                enqueue(Waiting(id: id, deadline: .now + timeout, continuation: continuation))
            }
        } onCancel: {
            state.withLock { $0.cancel(id) }?.continuation.resume(throwing: CancellationError())
        }
        defer { handover.done.resume() }
        return try await body(handover.resource)
    }

    private enum Queued {
        case waiting(wake: CheckedContinuation<Bool, Never>?)
        case refused(any Error)
    }

    /// Queues `waiting`, waking a worker for it if none leases for it yet. Runs in the caller's task: a caller
    /// cancelled before it is queued is refused here (its cancellation handler found nothing to remove), checked
    /// under the lock that the handler takes too.
    private func enqueue(_ waiting: Waiting) {
        let outcome = state.withLock { state -> Queued in
            if state.stopped { return .refused(LeaseFailure.stopped) }
            if Task.isCancelled { return .refused(CancellationError()) }
            state.pending.append(waiting)
            // A worker more when more callers wait than workers lease for them.
            guard state.pending.count > state.leasing, let worker = state.idle.popLast() else {
                return .waiting(wake: nil)
            }
            state.leasing += 1
            return .waiting(wake: worker)
        }
        switch outcome {
        case .waiting(let wake): wake?.resume(returning: true)
        case .refused(let error): waiting.continuation.resume(throwing: error)
        }
    }

    /// One worker: waits until a caller needs a resource, leases one, and hands it to the oldest caller still
    /// waiting, then to the next, until none waits; then gives it back.
    private func work() async {
        while await nextLease() {
            var leased = false
            do {
                try await lease { resource in
                    leased = true
                    var next = state.withLock { state in
                        state.leasing -= 1
                        return state.takeOldest()
                    }
                    while let waiting = next {
                        await withCheckedContinuation { done in
                            waiting.continuation.resume(returning: Handover(resource: resource, done: done))
                        }
                        next = state.withLock { $0.takeOldest() }
                    }
                }
            } catch  where !leased {
                // The lease failed (the pool is closed): the oldest caller is told why.
                state.withLock { state in
                    state.leasing -= 1
                    return state.takeOldest()
                }?.continuation.resume(throwing: error)
            } catch {
                // Given back with an error once used: its callers had their resource.
            }
        }
    }

    /// Whether to lease again: at once while more callers wait than workers lease for them, otherwise once
    /// `enqueue` wakes this worker; false once the queue stops.
    private func nextLease() async -> Bool {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool? in
                if state.stopped { return false }
                if state.pending.count > state.leasing {
                    state.leasing += 1
                    return true
                }
                state.idle.append(continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Fails each caller whose deadline passed, sleeping until the oldest one's (or one timeout, when none
    /// waits: a caller queued meanwhile is due no sooner than that).
    private func watch() async {
        while !Task.isCancelled {
            let due = state.withLock { $0.pending.first?.deadline } ?? .now + timeout
            try? await Task.sleep(until: due, clock: .continuous)
            let now = ContinuousClock.now
            let expired = state.withLock { state in
                let count = state.pending.prefix { $0.deadline <= now }.count
                defer { state.pending.removeFirst(count) }
                return Array(state.pending.prefix(count))
            }
            for waiting in expired { waiting.continuation.resume(throwing: LeaseFailure.timedOut) }
        }
    }

    private func stop() {
        let (workers, callers) = state.withLock { state in
            state.stopped = true
            defer {
                state.idle = []
                state.pending = []
            }
            return (state.idle, state.pending)
        }
        for worker in workers { worker.resume(returning: false) }
        for waiting in callers { waiting.continuation.resume(throwing: LeaseFailure.stopped) }
    }
}

/// Why a `LeaseQueue` handed no resource.
enum LeaseFailure: Error {
    /// The caller waited longer than the queue's timeout.
    case timedOut
    /// The queue stopped (its `run` ended); nothing more is leased.
    case stopped
}
