import Synchronization

/// The connections each local user (by the kernel's uid) has open, so that one user cannot take every
/// connection the daemon serves (`limits.max_connections_per_uid`).
///
/// Root is counted but never refused: the cap must not lock the administrator out of the daemon.
public final class PeerConnectionCounts: Sendable {
    private let counts = Mutex<[UInt32: Int]>([:])

    /// No connection counted yet.
    public init() {}

    /// Takes one of `uid`'s connection slots when it holds fewer than `limit`; false when it holds them all.
    public func acquire(uid: UInt32, limit: Int) -> Bool {
        counts.withLock { counts in
            let current = counts[uid, default: 0]
            guard uid == 0 || current < limit else { return false }
            counts[uid] = current + 1
            return true
        }
    }

    /// Gives one of `uid`'s slots back.
    public func release(uid: UInt32) {
        counts.withLock { counts in
            guard let current = counts[uid] else { return }
            counts[uid] = current > 1 ? current - 1 : nil
        }
    }

    /// The connections `uid` has open now.
    public func count(of uid: UInt32) -> Int {
        counts.withLock { $0[uid, default: 0] }
    }
}
