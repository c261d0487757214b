import Dispatch
import Foundation
import GRDB
import Testing

@testable import TwitterSQLite

/// The log's checkpoints off the writer's thread (`WALCheckpointer`): the background copies what commits
/// leave in the log into the database file, and the writer steps in only past the inline limit.
struct WALCheckpointerTests {
    typealias Schedule = WALCheckpointer.Schedule
    static let limits = WALCheckpointer.Limits(background: 10, inline: 100)

    /// A commit leaving `pages` in the log, outside `#expect`, which takes no mutation.
    static func commit(_ schedule: inout Schedule, _ pages: Int) -> WALCheckpointer.Action {
        schedule.committed(logPages: pages, limits: limits)
    }

    static func finish(_ schedule: inout Schedule, copied: Int?) -> Bool {
        schedule.finished(copiedPages: copied, limits: limits)
    }

    @Test func aCheckpointStartsOnceEnoughOfTheLogIsNotInTheFile() {
        var schedule = Schedule()
        #expect(Self.commit(&schedule, 9) == .nothing, "under the limit")
        #expect(Self.commit(&schedule, 10) == .startInBackground)
        #expect(schedule.phase == .running)
        #expect(Self.commit(&schedule, 15) == .nothing, "one runs already")
        #expect(!Self.finish(&schedule, copied: 10), "five pages came meanwhile: not enough for another")
        #expect(schedule.phase == .idle)
        #expect(Self.commit(&schedule, 19) == .nothing, "nine pages past what is copied")
        #expect(Self.commit(&schedule, 20) == .startInBackground)
        #expect(Self.commit(&schedule, 40) == .nothing)
        #expect(Self.finish(&schedule, copied: 20), "twenty came meanwhile: at once again")
        #expect(schedule.phase == .running)
        #expect(!Self.finish(&schedule, copied: 40))
        #expect(schedule.phase == .idle)
        #expect(Self.commit(&schedule, 5) == .nothing, "the log started over")
        #expect(schedule.copied == 0)
        #expect(Self.commit(&schedule, 10) == .startInBackground)
    }

    @Test func aLogStartedOverIsSeenByItsFirstCommit() {
        var schedule = Schedule()
        #expect(Self.commit(&schedule, 12) == .startInBackground)
        #expect(!Self.finish(&schedule, copied: 12), "all of it copied")
        #expect(Self.commit(&schedule, 3) == .nothing, "the log started over: a commit smaller than the log was")
        #expect(schedule.copied == 0)
        #expect(Self.commit(&schedule, 10) == .startInBackground, "ten pages of the new log, none of them copied")
    }

    @Test func aFailedCheckpointIsNotRepeatedAtOnce() {
        var schedule = Schedule()
        #expect(Self.commit(&schedule, 30) == .startInBackground)
        #expect(!Self.finish(&schedule, copied: nil))
        #expect(schedule.phase == .idle)
        #expect(Self.commit(&schedule, 31) == .startInBackground, "the next commit tries again")
    }

    @Test func pastTheInlineLimitTheWriterCheckpointsAndTheBackgroundDoesNotRunAgain() {
        var schedule = Schedule()
        #expect(Self.commit(&schedule, 50) == .startInBackground)
        #expect(Self.commit(&schedule, 100) == .checkpointInline)
        #expect(!Self.finish(&schedule, copied: 60), "it ends, leaving the checkpoint lock to the writer")
        #expect(schedule.phase == .idle)
        #expect(Self.commit(&schedule, 150) == .checkpointInline)
        #expect(schedule.phase == .idle)
    }

    @Test func onceClosedTheWriterCheckpointsAsSQLiteWould() {
        var schedule = Schedule(phase: .closed)
        #expect(Self.commit(&schedule, 9) == .nothing)
        #expect(Self.commit(&schedule, 10) == .checkpointInline)
        #expect(!Self.finish(&schedule, copied: 10))
        #expect(schedule.phase == .closed)
    }

    /// A database with an empty table and an empty log, its checkpointer idle and its counts at zero.
    static func scratch(_ name: String) throws -> (path: String, database: AppDatabase, checkpointer: WALCheckpointer) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID()).sqlite").path
        let database = try AppDatabase.open(path: path, checkpoints: limits)
        try database.writer.write { db in try db.execute(sql: "CREATE TABLE scratch (payload BLOB NOT NULL)") }
        let checkpointer = try #require(database.checkpointer)
        // The migrations' commits woke it: let it finish, then start from an empty log, and from a file without
        // the pages the migrations freed (v18 drops indexes): each row's pages are new pages at the file's end,
        // not pages taken from the free list, which would add its own page to every commit the tests count.
        checkpointer.waitUntilIdle()
        try database.writer.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
        checkpointer.waitUntilIdle()
        _ = try database.writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        checkpointer.resetCounts()
        return (path, database, checkpointer)
    }

    /// Commits `count` transactions of one row of `bytes` bytes each.
    static func write(_ database: AppDatabase, count: Int, bytes: Int = 3000) throws {
        for _ in 0..<count {
            try database.writer.write { db in
                try db.execute(sql: "INSERT INTO scratch VALUES (zeroblob(?))", arguments: [bytes])
            }
        }
    }

    /// Removes a scratch database with its log and shared-memory files.
    static func remove(_ path: String) {
        for file in [path, path + "-wal", path + "-shm"] { try? FileManager.default.removeItem(atPath: file) }
    }

    static func rows(inFileAloneAt path: String) throws -> Int {
        // The database file without its log: what the checkpoints have copied into it, and no more.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("alone-\(UUID()).sqlite").path
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        defer { Self.remove(copy) }
        let queue = try DatabaseQueue(path: copy)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM scratch") } ?? -1
    }

    @Test func theBackgroundCopiesTheLogIntoTheFileAndTheWriterDoesNot() throws {
        let (path, database, checkpointer) = try Self.scratch("checkpoint")
        defer { Self.remove(path) }
        defer { try? database.close() }
        try Self.write(database, count: 20)
        // The last commit alone leaves past the background limit in the log, beyond what any earlier checkpoint
        // copied (about two pages a row), so a checkpoint begins after it or runs again after the one under way.
        try Self.write(database, count: 1, bytes: 4096 * 30)
        checkpointer.waitUntilIdle()
        #expect(checkpointer.counts.background >= 1)
        #expect(checkpointer.counts.inline == 0, "the log never reached the inline limit")
        #expect(try Self.rows(inFileAloneAt: path) == 21)
    }

    @Test func whenTheBackgroundFallsBehindTheWriterKeepsTheLogBounded() throws {
        let (path, database, checkpointer) = try Self.scratch("inline")
        defer { Self.remove(path) }
        defer { try? database.close() }
        let release = DispatchSemaphore(value: 0)
        checkpointer.queue.async { release.wait() }
        defer { release.signal() }
        try Self.write(database, count: 500)
        #expect(checkpointer.counts.inline >= 1)
        #expect(checkpointer.counts.background == 0, "held up")
        // Every row is a page or two: without the inline checkpoints the log would hold them all.
        let log = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? .max
        #expect(log <= (Self.limits.inline + 10) * (4096 + 24) + 32)
        #expect(try Self.rows(inFileAloneAt: path) >= 500 - Self.limits.inline)
    }

    @Test func everyCommitSurvivesClosingAndReopening() throws {
        let (path, database, _) = try Self.scratch("reopen")
        defer { Self.remove(path) }
        try Self.write(database, count: 300)
        // A read opens a reader connection, which GRDB closes after the writer.
        #expect(try database.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM scratch") } == 300)
        try database.close()
        let log =
            FileManager.default.fileExists(atPath: path + "-wal")
            ? try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int : 0
        #expect(log == 0, "the log emptied into the file")
        #expect(try Self.rows(inFileAloneAt: path) == 300)
        let reopened = try AppDatabase.open(path: path)
        defer { try? reopened.close() }
        #expect(try reopened.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM scratch") } == 300)
        #expect(try reopened.writer.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
    }
}
