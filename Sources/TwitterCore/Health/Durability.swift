/// Whether what a store commits is known to reach the disk.
///
/// Once a sync of the store's log has failed it is not, for good: the kernel may have dropped the pages it could
/// not write and report the next sync as a success, and the log's frames chain to one another, so what follows a
/// lost frame would be lost with it. Only a restart mends it, replaying the log from what is on disk, as
/// PostgreSQL does after a failed fsync; so the daemon says `failed` in `system.health` and systemd's STATUS=, and
/// stops feeding the watchdog, which restarts it.
public enum Durability: Sendable, Equatable {
    /// Every sync so far succeeded.
    case durable
    /// A sync failed; `reason` is the first failure's.
    case failed(reason: String)

    /// A sync failed: the first failure stays, whatever follows; there is no way back but a restart.
    public mutating func syncFailed(_ reason: String) {
        if case .durable = self { self = .failed(reason: reason) }
    }
}
