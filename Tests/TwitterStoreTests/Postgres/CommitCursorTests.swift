import Testing

@testable import TwitterPostgres

/// Where a daemon's delivery of the commit log stands (`CommitCursor`): a notification is read from the log unless
/// its entry is delivered already or is this daemon's own, in the ordered write that delivers it; entries are
/// delivered once, in order; a daemon is caught up when every notified entry is delivered.
struct CommitCursorTests {
    @Test func anotherDaemonsEntryIsReadFromTheLog() {
        var cursor = CommitCursor(startingAt: 10)
        #expect(cursor.notify(11))
        #expect(!cursor.isCaughtUp)
        #expect(cursor.deliver(11))
        #expect(cursor.isCaughtUp)
    }

    @Test func thisDaemonsEntryInItsWriteIsLeftToThatWrite() {
        var cursor = CommitCursor(startingAt: 10)
        cursor.appended(11)
        // The notification can come before the write delivers its entry: nothing to read, yet not caught up.
        #expect(!cursor.notify(11))
        #expect(!cursor.isCaughtUp)
        #expect(cursor.deliver(11))
        cursor.writeEnded()
        #expect(cursor.isCaughtUp)
        #expect(cursor.writing == nil)
    }

    @Test func anEntryDeliveredAlreadyIsNotReadAgain() {
        var cursor = CommitCursor(startingAt: 10)
        cursor.appended(11)
        #expect(cursor.deliver(11))
        cursor.writeEnded()
        #expect(!cursor.notify(11), "the write delivered it before its notification came")
        #expect(!cursor.notify(9))
        #expect(!cursor.deliver(11), "delivered once")
        #expect(cursor.isCaughtUp)
    }

    @Test func anotherDaemonsEntryDuringThisDaemonsWriteIsStillRead() {
        var cursor = CommitCursor(startingAt: 10)
        cursor.appended(12)
        #expect(cursor.notify(11), "committed elsewhere before this write")
        #expect(cursor.notify(13), "committed elsewhere after it")
        #expect(!cursor.notify(12))
    }

    @Test func aWriteThatFailedLeavesItsEntryToTheLog() {
        var cursor = CommitCursor(startingAt: 10)
        cursor.appended(11)
        // Committed, then the read of the entries before it failed: the write ended without delivering it.
        cursor.writeEnded()
        #expect(cursor.notify(11))
        #expect(!cursor.isCaughtUp)
    }

    @Test func anUnreadableNotificationIsReadFromTheLog() {
        var cursor = CommitCursor(startingAt: 10)
        cursor.appended(11)
        #expect(cursor.notify(nil))
        #expect(cursor.isCaughtUp, "it named no entry")
    }
}
