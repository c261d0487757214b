/// Whether a daemon on a shared database knows enough of the other daemons' commits to answer from its caches,
/// without reading the commit log before each logged-in request: the one rule behind `OtherDaemons.isCurrent`.
///
/// The lease is what keeps a revocation (or a block, a suspension: `CommitEvent.withdrawsAccess`) exact without a
/// read per request. A daemon renews it with a heartbeat (`CommitFeed.heartbeat`) that reports what it has
/// delivered and, in the same statement, learns whether any such commit lies beyond that; only a heartbeat that
/// finds none renews, for `duration` from the moment it was sent. The daemon that made the commit answers once
/// every daemon seen within `duration` has acknowledged it, or once `duration` has passed
/// (`CommitFeed.awaitAcknowledgements`). So when it answers, a daemon still holding a lease renewed it after the
/// commit, and has applied it; every other daemon reads the log before it serves a logged-in request. (Only
/// durations are compared, each on one clock: the daemon's own monotonic clock for its lease, the database's for
/// `daemons.seen_at`.)
///
/// Besides the lease, pages from the caches need the LISTEN connection up and every notified entry delivered: the
/// others' tweets then reach this daemon within a notification's delivery, not a heartbeat.
enum ReadLease: Equatable, Sendable {
    /// Not listening for the others' commits: nothing tells this daemon what they write.
    case notListening
    /// Listening; no heartbeat since LISTEN took effect has renewed the lease, or the last one ran out.
    case listening
    /// Listening, and renewed by a heartbeat sent at a moment that makes it valid until `until`.
    case held(until: ContinuousClock.Instant)

    /// How long a heartbeat renews the lease for, and so how long a commit that withdraws access waits at most for
    /// a daemon that does not acknowledge it.
    static let duration: Duration = .milliseconds(1500)
    /// How often a daemon sends its heartbeat: several times within `duration`, so a slow one does not lapse it.
    static let heartbeatInterval: Duration = .milliseconds(250)

    /// LISTEN took effect; a heartbeat after this renews.
    func startedListening() -> ReadLease {
        switch self {
        case .notListening: .listening
        case .listening, .held: self
        }
    }

    /// The LISTEN connection went away: the caches may miss what the others write from now on.
    func stoppedListening() -> ReadLease { .notListening }

    /// A heartbeat sent at `sentAt` found no commit that withdraws access beyond what this daemon has delivered. Renews only while
    /// listening; a later renewal never shortens the lease.
    func renewed(sentAt: ContinuousClock.Instant) -> ReadLease {
        let until = sentAt + Self.duration
        switch self {
        case .notListening: return .notListening
        case .listening: return .held(until: until)
        case .held(let current): return .held(until: max(current, until))
        }
    }

    /// A heartbeat found a commit that withdraws access this daemon has not delivered, or failed: the lease ends
    /// now.
    func lapsed() -> ReadLease {
        switch self {
        case .notListening: .notListening
        case .listening, .held: .listening
        }
    }

    /// Whether the lease holds at `now`.
    func isHeld(at now: ContinuousClock.Instant) -> Bool {
        guard case .held(let until) = self else { return false }
        return now < until
    }
}
