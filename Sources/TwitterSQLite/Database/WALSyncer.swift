import Dispatch
import Foundation
import Synchronization
import TwitterCore

/// Makes the write-ahead log durable on a thread of its own, so that the one writer thread can write the next
/// batch of posts while the last one is being synced (issue #38: "the write lock is held through the fsync").
///
/// The post committer commits its batches with `PRAGMA synchronous = NORMAL`: SQLite appends the batch to the
/// log and returns without `fdatasync`. It then hands the batch's answers and events here; this syncer runs
/// `fdatasync` on the log file (its own descriptor: a sync is of the file, whichever descriptor wrote) and only
/// then publishes the events and answers the posters, in commit order. One sync covers every batch committed
/// before it began, so while one runs the next batches queue up and share the following one (a group commit of
/// syncs). SQLite's own guarantee under NORMAL stays: the log is synced before a checkpoint copies it and the
/// file after, so what is synced here is either in the log or in the file after a power cut. Answered means
/// durable, as with FULL; an unsynced batch can be seen by a reader of the database for the length of a sync,
/// and a power cut in that moment loses it, unanswered (docs/OPERATIONS.md, "Disk: the database and its log").
///
/// A failed sync fails every batch after it too: the kernel may have dropped the pages it could not write and
/// report the next sync as a success, and each frame of the log chains to the one before, so SQLite's recovery
/// would stop at the lost one and drop every later batch with it.
///
/// Measured with the C client, durable posts 64 × 4 (docs/BENCHMARKS.md, "durable posts 64 × 4");
/// `PowerCutTests` proves nothing answered is lost when unsynced writes are.
final class WALSyncer: Sendable {
    /// What runs once the log is synced: the answers and events of one committed batch.
    typealias Work = @Sendable (Result<Void, any Error>) -> Void

    /// Which work waits for the next sync, whether a sync runs, and whether one has failed.
    struct Schedule {
        enum Phase: Equatable {
            case idle
            /// A drain runs, on the queue or on the writer's thread; `waiting` is what the next sync covers.
            case syncing
        }

        private(set) var phase = Phase.idle
        private(set) var waiting: [Work] = []
        /// The first failed sync's error, for good: every later batch is answered with it instead of synced.
        private(set) var failure: (any Error)?
        /// Whether a sync has failed, for `system.health` and the watchdog (`HealthReporter`).
        private(set) var durability = Durability.durable

        /// Where the drain that syncs a committed batch runs.
        enum Drain: Equatable {
            /// One runs already and takes the batch with the next sync.
            case running
            /// On the syncer's queue, so that the writer goes on to the next batch meanwhile.
            case onQueue
            /// On the committing thread, when no other batch waits to be written: one thread wakes the
            /// other no more, and the sync's answers leave from the thread that synced.
            case here
        }

        /// A batch was committed; returns where the drain must start, if one must. `nothingWaits` says that no
        /// batch waits to be written behind this one, so nothing would be written while this one syncs.
        mutating func committed(_ work: @escaping Work, nothingWaits: Bool = false) -> Drain {
            waiting.append(work)
            guard phase == .idle else { return .running }
            phase = .syncing
            return nothingWaits ? .here : .onQueue
        }

        /// The drain takes what the next sync covers, with the failure to answer it with instead of syncing if a
        /// sync failed before; nil, and idle, when nothing waits.
        mutating func nextSync() -> (works: [Work], failure: (any Error)?)? {
            guard !waiting.isEmpty else {
                phase = .idle
                return nil
            }
            defer { waiting = [] }
            return (waiting, failure)
        }

        /// The sync of what the drain took failed.
        mutating func syncFailed(_ error: any Error) {
            if failure == nil { failure = error }
            durability.syncFailed((error as? TwitterError)?.message ?? "\(error)")
        }
    }

    private let logPath: String
    private let schedule = Mutex(Schedule())
    private let queue = DispatchQueue(label: "twitterd.wal-sync")
    /// The log's descriptor, touched only by the one drain that runs (on `queue` or on the writer's thread).
    private nonisolated(unsafe) var log: Int32 = -1

    /// A syncer for the log of the database file at `databasePath`.
    init(databasePath: String) {
        logPath = databasePath + "-wal"
    }

    deinit {
        if log >= 0 { _ = Foundation.close(log) }
    }

    /// On the writer's thread, after a commit under `synchronous = NORMAL`: `work` runs once the log is synced,
    /// after the work of every commit before it.
    ///
    /// When `nothingWaits` (no post queued behind the batch) and no sync runs, the writer syncs and answers
    /// itself before it returns: a lone poster, as one connection posting one at a time is, then waits for
    /// one wake of a thread fewer each way. Measured with the C client, durable posts 1 × 1 (bench/analysis.md,
    /// "Durable posts (#51)"). A post arriving meanwhile waits for the sync, as it would for a writer busy with
    /// the next batch; under load something always waits, and the batches overlap their syncs as before.
    func whenDurable(_ work: @escaping Work, nothingWaits: Bool = false) {
        switch schedule.withLock({ $0.committed(work, nothingWaits: nothingWaits) }) {
        case .running: break
        case .onQueue: queue.async { self.drain() }
        case .here: drain()
        }
    }

    /// `failed` once a sync of the log has failed: from then on every batch is answered with that failure, until a
    /// restart replays the log.
    var durability: Durability {
        schedule.withLock { $0.durability }
    }

    /// Waits until every commit the queue's drains cover is synced and its work done. A drain on the writer's
    /// thread ends before the writer goes on, so on the writer this is every commit handed over so far; from
    /// elsewhere (`AppDatabase.close`) the writer's own drain is waited for by going through the writer after it.
    func waitUntilDrained() {
        queue.sync {}
    }

    /// Syncs and runs what waits, until nothing does; one drain at a time (`Schedule.Phase.syncing`).
    private func drain() {
        while let (works, failedBefore) = schedule.withLock({ $0.nextSync() }) {
            let synced: Result<Void, any Error> = failedBefore.map { .failure($0) } ?? Result { try syncLog() }
            if case .failure(let error) = synced { schedule.withLock { $0.syncFailed(error) } }
            for work in works { work(synced) }
        }
    }

    /// `fdatasync` on the log, reopened when the file is not the one the descriptor holds (a log deleted and
    /// made again after the database closed and opened). A log first seen is made durable by name too: SQLite
    /// syncs the folder when it syncs a new log, and its first sync may be this one. Which file each is comes
    /// from `FileIdentity`, which leaves the log's times alone: `stat` here made every sync commit the log's
    /// inode to the journal (bench/analysis.md, "The log's sync, twice as long as it had to be").
    private func syncLog() throws {
        let onDisk: FileIdentity
        do { onDisk = try FileIdentity(path: logPath) } catch { throw Self.failure("find", error.code) }
        if log < 0 || (try? FileIdentity(descriptor: log)) != onDisk {
            if log >= 0 { _ = Foundation.close(log) }
            log = open(logPath, O_RDONLY | O_CLOEXEC)
            guard log >= 0 else { throw Self.failure("open", errno) }
            try Self.syncFolder(of: logPath)
        }
        while fdatasync(log) != 0 {
            guard errno == EINTR else { throw Self.failure("sync", errno) }
        }
    }

    private static func syncFolder(of path: String) throws {
        let folder = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw failure("open the folder of", errno) }
        defer { _ = Foundation.close(folder) }
        while fsync(folder) != 0 {
            guard errno == EINTR else { throw failure("sync the folder of", errno) }
        }
    }

    /// The posters learn that their batch is written but not known to be on disk.
    private static func failure(_ action: String, _ code: Int32) -> TwitterError {
        TwitterError(
            .internal,
            "The post was written but could not be made durable: could not \(action) the database's write-ahead log: "
                + String(cString: strerror(code)))
    }
}
