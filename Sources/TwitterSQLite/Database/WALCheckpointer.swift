import Dispatch
import GRDB
import GRDBSQLite
import Synchronization

/// Copies the write-ahead log back into the database file on a thread of its own, so that the one writer
/// thread every durable post waits for no longer does it.
///
/// SQLite's default is that the connection whose commit takes the log past 1,000 pages copies the log into
/// the database file and syncs that file, inside the commit. Under the C client's posting load that was
/// 13.5 % of the writer thread's time (docs/BENCHMARKS.md, "The checkpoints off the writer"). Now the
/// writer's connection only reports each commit's log size (SQLite's WAL hook, which replaces the automatic
/// checkpoint), and past `Limits.background` pages this checkpointer runs a PASSIVE checkpoint on its own
/// connection: that blocks neither the writer nor any reader.
///
/// A checkpoint beside a busy writer copies only what was committed when it began, and the log starts over
/// from its beginning only when a writer finds all of it copied; under writes that never pause the log would
/// grow without end. So past `Limits.inline` pages the writer checkpoints inline once, as SQLite would have:
/// the background has copied most of the log by then, so the inline one copies the rest, and the log restarts.
final class WALCheckpointer: Sendable {
    /// When checkpoints run, in pages of the log.
    struct Limits: Sendable {
        /// A commit leaving at least this many pages in the log wakes the background checkpoint; SQLite's own
        /// automatic checkpoint starts at the same size.
        var background = 1000
        /// A commit leaving at least this many pages in the log checkpoints inline, on the writer.
        var inline = 8000
    }

    /// What a commit makes happen.
    enum Action: Equatable {
        case nothing
        case startInBackground
        case checkpointInline
    }

    /// Whether the background checkpoint runs, and how much of the log is in the file already.
    struct Schedule: Equatable {
        enum Phase: Equatable {
            case idle
            case running
            /// The database is closing: commits checkpoint inline, as SQLite's automatic checkpoint does.
            case closed
        }

        var phase = Phase.idle
        /// Pages in the log as the last commit left it.
        var logged = 0
        /// Pages of the log the last background checkpoint copied into the file. A checkpoint is asked for
        /// only once this many more have been logged: copying every few pages would copy the pages every
        /// commit touches (the table's last leaf, the index's) over and over, and sync the file each time.
        var copied = 0

        /// A commit left `logPages` pages in the log: what it must do. Every commit is reported, small ones
        /// too, so that a log started over is seen by its first commit, which leaves it smaller than before.
        mutating func committed(logPages: Int, limits: Limits) -> Action {
            if logPages < logged || logPages < copied { copied = 0 }  // The log started over from its beginning.
            logged = logPages
            switch phase {
            case .closed:
                return logPages >= limits.background ? .checkpointInline : .nothing
            case _ where logPages >= limits.inline:
                return .checkpointInline
            case .idle where logPages - copied >= limits.background:
                phase = .running
                return .startInBackground
            case .idle, .running:
                return .nothing
            }
        }

        /// The background checkpoint ended, having copied the log's first `copiedPages` pages (nil when it
        /// failed); returns whether another must run at once. None runs past the inline limit, so that the
        /// writer finds the checkpoint lock free.
        mutating func finished(copiedPages: Int?, limits: Limits) -> Bool {
            if let copiedPages { copied = copiedPages }
            guard phase == .running else { return false }
            if copiedPages != nil, logged < limits.inline, logged - copied >= limits.background { return true }
            phase = .idle
            return false
        }
    }

    /// How many checkpoints ran where, for tests and the curious.
    struct Counts: Equatable {
        var background = 0
        var inline = 0
    }

    private struct State {
        var schedule = Schedule()
        var counts = Counts()
    }

    private let path: String
    private let limits: Limits
    private let state = Mutex(State())
    /// The checkpoints run here one at a time; its connection is touched only here. (Tests hold it up to
    /// show what the writer does when the background falls behind.)
    let queue = DispatchQueue(label: "twitterd.checkpoint")
    private nonisolated(unsafe) var connection: DatabaseQueue?

    /// A checkpointer for the database file at `path`.
    init(path: String, limits: Limits = Limits()) {
        self.path = path
        self.limits = limits
    }

    /// The configuration's part: hooks the writer's connection (readers never commit).
    func install(on db: Database) {
        guard !db.configuration.readonly else { return }
        sqlite3_wal_hook(db.sqliteConnection, walHook, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The checkpoints run so far.
    var counts: Counts { state.withLock { $0.counts } }

    /// Sets the counts back to zero.
    func resetCounts() {
        state.withLock { $0.counts = Counts() }
    }

    /// Waits for the background checkpoint to end, if one runs.
    func waitUntilIdle() {
        queue.sync {}
    }

    /// Stops the background checkpoints and closes their connection, before the database closes; commits
    /// after this checkpoint inline past `Limits.background`, as SQLite's automatic checkpoint would.
    func close() {
        state.withLock { $0.schedule.phase = .closed }
        queue.sync {
            try? connection?.close()
            connection = nil
        }
    }

    /// Called by SQLite after each commit of the writer, on the writer's thread, with the log's size in pages.
    fileprivate func committed(logPages: Int32, connection writer: OpaquePointer?, name: UnsafePointer<CChar>?) {
        switch state.withLock({ $0.schedule.committed(logPages: Int(logPages), limits: limits) }) {
        case .nothing:
            return
        case .startInBackground:
            queue.async { self.runInBackground() }
        case .checkpointInline:
            // SQLITE_BUSY while a background one still runs: a later commit tries again.
            if sqlite3_wal_checkpoint_v2(writer, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil) == SQLITE_OK {
                state.withLock { $0.counts.inline += 1 }
            }
        }
    }

    /// On `queue`: checkpoints until no commit asked again meanwhile.
    private func runInBackground() {
        var again = true
        while again {
            let copied = checkpoint()
            again = state.withLock { state in
                if copied != nil { state.counts.background += 1 }
                return state.schedule.finished(copiedPages: copied, limits: limits)
            }
        }
    }

    /// One PASSIVE checkpoint on the checkpointer's own connection, opened on first use; returns how many of
    /// the log's pages are in the file now, nil when it could not run (the connection would not open, the
    /// writer was checkpointing, or the database is closing): the inline limit still holds.
    private func checkpoint() -> Int? {
        // A checkpoint asked for just before `close()` must not open a connection after it.
        guard state.withLock({ $0.schedule.phase != .closed }) else { return nil }
        do {
            if connection == nil {
                var configuration = Configuration()
                configuration.prepareDatabase { db in
                    // The copy is synced to the database file before the log may start over.
                    try db.execute(sql: "PRAGMA synchronous = FULL")
                }
                connection = try DatabaseQueue(path: path, configuration: configuration)
            }
            return try connection?.writeWithoutTransaction { db in try db.checkpoint(.passive).checkpointedFrameCount }
        } catch {
            return nil
        }
    }
}

/// SQLite's WAL hook: a C function, so the checkpointer comes as the context pointer. The configuration that
/// installs it holds the checkpointer for as long as the pool, and so its writer connection, lives.
private let walHook: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32 =
    { context, connection, name, pages in
        guard let context else { return SQLITE_OK }
        Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue()
            .committed(logPages: pages, connection: connection, name: name)
        return SQLITE_OK
    }
