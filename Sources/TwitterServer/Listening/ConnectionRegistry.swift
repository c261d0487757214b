import NIOCore
import Synchronization

/// The connections being served, so a graceful shutdown can drain each and force-close the stragglers.
public final class ConnectionRegistry: Sendable {
    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var isDraining = false
        var emptyWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let nextID = Atomic<Int>(1)

    /// No connection yet.
    public init() {}

    /// A fresh connection number for logs.
    public func makeConnectionID() -> Int {
        nextID.add(1, ordering: .relaxed).oldValue
    }

    /// Adds a connection; one that arrives while draining starts draining at once.
    public func add(_ channel: any Channel) {
        let draining = state.withLock { state in
            state.channels[ObjectIdentifier(channel)] = channel
            return state.isDraining
        }
        if draining { channel.pipeline.fireUserInboundEventTriggered(DrainEvent()) }
    }

    /// Removes a connection that has ended.
    public func remove(_ channel: any Channel) {
        let waiters = state.withLock { state in
            state.channels.removeValue(forKey: ObjectIdentifier(channel))
            guard state.channels.isEmpty else { return [CheckedContinuation<Void, Never>]() }
            defer { state.emptyWaiters = [] }
            return state.emptyWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once no connection is left.
    public func waitUntilEmpty() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let isEmpty = state.withLock { state in
                if state.channels.isEmpty { return true }
                state.emptyWaiters.append(waiter)
                return false
            }
            if isEmpty { waiter.resume() }
        }
    }

    /// Asks every connection to finish what it has received and then close.
    public func drainAll() {
        let channels = state.withLock { state in
            state.isDraining = true
            return Array(state.channels.values)
        }
        for channel in channels { channel.pipeline.fireUserInboundEventTriggered(DrainEvent()) }
    }

    /// Closes every connection now, answered or not: the grace period is over.
    public func closeAll() {
        let channels = state.withLock { Array($0.channels.values) }
        for channel in channels { channel.close(promise: nil) }
    }
}
