import Foundation
import GRDB
import TwitterCore
import TwitterSQL

/// Group commit for posts (`PostCommitting`), each batch one transaction (one fsync).
///
/// The loop runs on the writer's own thread, so a batch starts the moment the previous one is on disk rather
/// than after a hop back to some event loop; there is no background task. Batches run one after another, so
/// tweets are committed and reported in id order. The text index is not written in a batch's transaction but
/// after its answers, a thousand tweets at a time (`SearchIndexer`).
struct SQLitePostCommitter: PostCommitting {
    let database: AppDatabase
    let observer: any CommitObserving
    let queue = PostQueue()

    /// Hands the loop to the database writer, which runs it once the writes before it are done.
    func startCommitting() {
        database.writer.asyncWriteWithoutTransaction(commitUntilEmpty)
    }

    private func commitUntilEmpty(_ db: Database) {
        // The batches commit without SQLite's fsync and the syncer answers them once the log is on disk, so the
        // next batch is written while the last one syncs; a batch with none queued behind it is synced and
        // answered here, by the writer, with no thread to wake. Other writes keep FULL: the loop restores it, and
        // returns (freeing the writer for them) only once every batch it committed is answered, so the observer
        // still learns of all commits in order. In memory, or if NORMAL is refused, each commit syncs itself and
        // is its answer.
        let syncer = database.syncer.flatMap { syncer in
            (try? Self.set(.normal, db)).map { syncer }
        }
        defer {
            if let syncer {
                Self.restoreFullSync(db)
                syncer.waitUntilDrained()
            }
        }
        while let batch = queue.nextBatch() {
            let (outcomes, events) = commit(batch, in: db)
            let answer: WALSyncer.Work = { synced in
                // Committed either way: the read model follows the database. Only the answers say whether it is
                // known to be on disk.
                if !events.isEmpty { observer.committed(events) }
                for (waiting, outcome) in zip(batch, outcomes) {
                    waiting.outcome.fulfil(synced.flatMap { _ in outcome })
                }
            }
            // A batch refused whole is answered in its turn too, after the batches before it.
            if let syncer { syncer.whenDurable(answer, nothingWaits: queue.isEmpty) } else { answer(.success(())) }
            // While the batch syncs: the posts are searchable already (the index's lag is read from the tweet
            // table); a failure here, or a power cut before the next sync, leaves the tweets for a later commit
            // to index.
            try? SearchIndexer.afterCommit(db)
        }
    }

    /// Every other write on the writer must sync before its answer. SQLite refuses the change only inside a
    /// transaction, which a failed rollback could leave open: it is ended, and the setting made again.
    private static func restoreFullSync(_ db: Database) {
        if (try? set(.full, db)) != nil { return }
        try? db.execute(sql: "ROLLBACK")
        try? set(.full, db)
    }

    enum Synchronous: String {
        case normal = "PRAGMA synchronous = NORMAL"
        case full = "PRAGMA synchronous = FULL"
    }

    /// Sets `synchronous`, compiling the `PRAGMA` each time: SQLite changes the setting while it compiles the
    /// statement, and a compiled one does nothing when run again (`WALSyncerTests.thePostCommittersSettingTakesEffectEveryTime`).
    static func set(_ level: Synchronous, _ db: Database) throws {
        try db.execute(sql: level.rawValue)
    }

    /// Writes `batch` in one transaction; each post's outcome and the events, every post failing and no events
    /// when the transaction failed.
    private func commit(_ batch: [Waiting], in db: Database) -> ([Outcome], [CommitEvent]) {
        do {
            var written: ([Outcome], [CommitEvent]) = ([], [])
            try db.inTransaction {
                written = try write(batch.map(\.item), in: db)
                return .commit
            }
            return written
        } catch {
            return (batch.map { _ in .failure(error) }, [])
        }
    }

    private typealias Waiting = PostQueue.Waiting

    /// A post's own outcome: one post refused (a reply to a missing tweet) does not fail the others.
    private typealias Outcome = Result<Tweet, any Error>

    /// Writes a batch (`BatchWriter`, its rows through `SQLiteConnection.insert`); returns each post's outcome and the
    /// batch's events.
    private func write(_ posts: [PendingPost], in db: Database) throws -> ([Outcome], [CommitEvent]) {
        let (outcomes, events) = try SQLiteConnection.run(db) { connection in
            try await BatchWriter.write(posts, on: connection, now: connection.dialect.stored(Date()))
        }
        return (outcomes.map { $0.mapError { $0 } }, events)
    }
}
