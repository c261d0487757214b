import Foundation
import GRDB
import Synchronization
import Testing
import TwitterCore

@testable import TwitterSQLite

/// The log synced off the writer's thread (`WALSyncer`): what a sync covers, and that every other commit still
/// syncs before it returns. `PowerCutTests` (end to end) proves the outcome: nothing answered is lost.
struct WALSyncerTests {
    typealias Schedule = WALSyncer.Schedule

    final class Ran: Sendable {
        let order = Mutex<[Int]>([])
        func work(_ index: Int) -> WALSyncer.Work { { _ in self.order.withLock { $0.append(index) } } }
    }

    @Test func aSyncCoversEveryCommitHandedOverBeforeItBegins() throws {
        var schedule = Schedule()
        let ran = Ran()
        // Each transition outside `#expect`, which takes no mutation.
        let firstStarts = schedule.committed(ran.work(1)) == .onQueue
        #expect(firstStarts, "the first commit starts a drain")
        #expect(schedule.phase == .syncing)
        let secondStarts = schedule.committed(ran.work(2)) != .running
        #expect(!secondStarts, "one drain at a time")
        let first = schedule.nextSync()
        #expect(first?.works.count == 2, "both commits share the first sync")
        let thirdStarts = schedule.committed(ran.work(3), nothingWaits: true) != .running
        #expect(!thirdStarts, "committed while it syncs: the drain runs on")
        let second = schedule.nextSync()
        #expect(second?.works.count == 1, "the next sync covers it")
        #expect(second?.failure == nil)
        let none = schedule.nextSync()
        #expect(none == nil)
        #expect(schedule.phase == .idle)
        let fourthStarts = schedule.committed(ran.work(4)) == .onQueue
        #expect(fourthStarts, "idle again: the next commit starts a drain")
        struct Lost: Error {}
        schedule.syncFailed(Lost())
        let afterFailure = schedule.nextSync()
        #expect(afterFailure?.failure is Lost, "what waits after a failed sync is answered with its error")
    }

    /// With no batch queued behind it and no sync running, the writer syncs its batch itself: the work has run
    /// when `whenDurable` returns, on the writer's own thread. With a batch behind it, the writer goes on and the
    /// syncer's queue syncs.
    @Test func aLoneBatchIsSyncedAndAnsweredByTheThreadThatCommittedIt() throws {
        var schedule = Schedule()
        let ran = Ran()
        let lone = schedule.committed(ran.work(1), nothingWaits: true)
        #expect(lone == .here)
        #expect(schedule.phase == .syncing, "a drain on the writer excludes one on the queue")
        let meanwhile = schedule.committed(ran.work(2))
        #expect(meanwhile == .running)
        _ = schedule.nextSync()
        _ = schedule.nextSync()
        #expect(schedule.phase == .idle)

        let scratch = try ScratchDatabase("lone")
        defer { scratch.remove() }
        let database = scratch.database
        let syncer = try #require(database.syncer)
        let caller = pthread_self()
        let threads = Mutex<[Bool]>([])
        syncer.whenDurable(
            { synced in
                threads.withLock { $0.append(pthread_equal(pthread_self(), caller) != 0 && (try? synced.get()) != nil) }
            }, nothingWaits: true)
        #expect(threads.withLock { $0 } == [true], "synced and run before whenDurable returned, on the caller's thread")
        syncer.whenDurable(
            { _ in threads.withLock { $0.append(pthread_equal(pthread_self(), caller) != 0) } }, nothingWaits: false)
        syncer.waitUntilDrained()
        #expect(threads.withLock { $0 } == [true, false], "with a batch behind it, the syncer's queue syncs")
    }

    /// A sync that failed fails every batch after it, even once the log could be synced again: the pages it lost
    /// break the log's chain, and recovery would drop the later batches too.
    @Test func aFailedSyncFailsEveryLaterBatch() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-fail-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let syncer = WALSyncer(databasePath: folder + "/db.sqlite")
        let outcomes = Mutex<[Bool]>([])
        let record: WALSyncer.Work = { synced in outcomes.withLock { $0.append((try? synced.get()) != nil) } }
        #expect(syncer.durability == .durable)
        syncer.whenDurable(record)  // No log yet: the sync fails.
        syncer.waitUntilDrained()
        // Told to `system.health` and the watchdog, which restarts the daemon (`HealthReporter`).
        guard case .failed(let reason) = syncer.durability else {
            Issue.record("a failed sync left the syncer durable")
            return
        }
        #expect(reason.contains("write-ahead log"), "\(reason)")
        _ = FileManager.default.createFile(atPath: folder + "/db.sqlite-wal", contents: Data("frames".utf8))
        syncer.whenDurable(record)
        syncer.waitUntilDrained()
        #expect(outcomes.withLock { $0 } == [false, false])
        #expect(syncer.durability != .durable, "syncing again does not mend it")
        // A syncer that never failed syncs the same log.
        let healthy = WALSyncer(databasePath: folder + "/db.sqlite")
        healthy.whenDurable(record)
        healthy.waitUntilDrained()
        #expect(outcomes.withLock { $0 } == [false, false, true])
    }

    @Test func workRunsInCommitOrderOnceSynced() throws {
        let scratch = try ScratchDatabase("sync")
        defer { scratch.remove() }
        let database = scratch.database
        let syncer = try #require(database.syncer)
        let ran = Ran()
        let outcomes = Mutex<[Bool]>([])
        for index in 0..<50 {
            syncer.whenDurable { synced in
                ran.order.withLock { $0.append(index) }
                outcomes.withLock { $0.append((try? synced.get()) != nil) }
            }
        }
        syncer.waitUntilDrained()
        #expect(ran.order.withLock { $0 } == Array(0..<50))
        #expect(outcomes.withLock { $0 }.allSatisfy { $0 }, "every sync of the log succeeded")
    }

    /// GRDB's pool turns its writer to NORMAL with WAL; the store turns it back, and the post committer, which
    /// commits under NORMAL and syncs on its own, leaves it FULL for the writes after its batches.
    @Test func theWriterSyncsEveryCommitExceptThePostCommittersOwn() async throws {
        let scratch = try ScratchDatabase("full")
        defer { scratch.remove() }
        let database = scratch.database
        let synchronous = { try database.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } }
        #expect(try synchronous() == 2, "FULL after opening")
        let stores = database.stores(observer: CommitRecorder())
        let author = try await stores.users.createUser(email: "a@example.com", username: "a", passwordHash: nil)
        let posts = try await withThrowingTaskGroup(of: Tweet.self) { group in
            for index in 0..<64 {
                group.addTask { try await stores.tweets.post(PostDraft(text: "post \(index)", by: author.id)) }
            }
            return try await group.reduce(into: [Tweet]()) { $0.append($1) }
        }
        #expect(posts.count == 64)
        #expect(try synchronous() == 2, "FULL again after the batches")
    }

    /// SQLite changes `synchronous` when it compiles the `PRAGMA`, not when it runs it: a statement kept compiled
    /// would leave every loop after the first under the first setting it made.
    @Test func thePostCommittersSettingTakesEffectEveryTime() throws {
        let scratch = try ScratchDatabase("level")
        defer { scratch.remove() }
        let database = scratch.database
        let levels = try database.writer.writeWithoutTransaction { db in
            try [SQLitePostCommitter.Synchronous.normal, .full, .normal, .full].map { level in
                try SQLitePostCommitter.set(level, db)
                return try Int.fetchOne(db, sql: "PRAGMA synchronous")
            }
        }
        #expect(levels == [1, 2, 1, 2])
    }
}
