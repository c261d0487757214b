/// Where a daemon's delivery of the commit log stands (`CommitFeed`), and whether a notification calls for a read
/// of the log.
///
/// Every commit notifies every daemon, the one that made it included. A daemon's own entry is delivered by the
/// ordered write that made it, at its commit, with every entry before it (`CommitFeed.deliver`); a read of the log
/// for its notification only found it there (or found nothing, once the write had delivered it) while the next
/// ordered write waited for that read's lock: measured with `bench/ab-postgres.sh`, 1.85 reads of the log a batch
/// under 64 posters before, none after (bench/analysis-postgres.md, "Durable posts (#51)").
struct CommitCursor: Sendable {
    /// The newest entry delivered; every entry up to it is.
    private(set) var delivered: Int64 = 0
    /// The newest entry a notification named.
    private(set) var notified: Int64 = 0
    /// This daemon's entry from its append to the end of the ordered write that appended it, which delivers it.
    /// Ordered writes take turns in a daemon, so there is at most one.
    private(set) var writing: Int64?

    /// Starts at `newest`: what was committed before is in the database already.
    init(startingAt newest: Int64 = 0) {
        delivered = newest
    }

    /// Every notified entry is delivered.
    var isCaughtUp: Bool { delivered >= notified }

    /// This daemon appended entry `id` in the ordered write under way.
    mutating func appended(_ id: Int64) {
        writing = id
    }

    /// The ordered write under way ended: committed and delivered, or failed.
    mutating func writeEnded() {
        writing = nil
    }

    /// Notes a notification of entry `id` (nil when its payload was unreadable); returns whether the log must be
    /// read: not for an entry delivered already, nor for this daemon's entry whose write is under way.
    mutating func notify(_ id: Int64?) -> Bool {
        guard let id else { return true }
        notified = max(notified, id)
        return id > delivered && id != writing
    }

    /// Moves past entry `id`; returns false when it was delivered already.
    mutating func deliver(_ id: Int64) -> Bool {
        guard id > delivered else { return false }
        delivered = id
        return true
    }
}
