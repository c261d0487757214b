import Synchronization

/// Live counters for `system.health` and the connection cap; shared by every connection.
public final class ServerStatistics: Sendable {
    private let startedAt = ContinuousClock.now
    private let openConnections = Atomic<Int>(0)
    private let served = Atomic<Int>(0)

    /// Creates counters starting now.
    public init() {}

    /// Connections being served now.
    public var connections: Int { openConnections.load(ordering: .relaxed) }

    /// Requests and notifications handled since start.
    public var requestsServed: Int { served.load(ordering: .relaxed) }

    /// Whole seconds since the daemon started.
    public var uptimeSeconds: Int {
        Int((ContinuousClock.now - startedAt).components.seconds)
    }

    /// Takes a connection slot when fewer than `limit` are taken; false when the daemon is full.
    package func acquireConnection(limit: Int) -> Bool {
        var current = openConnections.load(ordering: .relaxed)
        while current < limit {
            let (exchanged, original) = openConnections.compareExchange(
                expected: current, desired: current + 1, ordering: .acquiringAndReleasing
            )
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Gives a connection slot back.
    package func releaseConnection() {
        openConnections.subtract(1, ordering: .relaxed)
    }

    /// Counts handled requests.
    package func recordRequests(_ count: Int) {
        served.add(count, ordering: .relaxed)
    }
}
