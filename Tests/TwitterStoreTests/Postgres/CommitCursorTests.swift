import Testing

@testable import TwitterPostgres

/// Where a daemon's delivery of the commit log stands (`CommitCursor`): a notification is read from the log unless
/// its entry is delivered already or is this daemon's own, in the ordered write that delivers it; entries are
/// delivered once, in order; a daemon is caught up when every notified entry is delivered.
struct CommitCursorTests {
    @Test func anotherDaemonsEntryIsReadFromTheLog() {
        var cursor = CommitCursor(startingAt: 10)
        let read = cursor.notify(11)
        #expect(read)
        #expect(!cursor.isCaughtUp)
        let new = cursor.deliver(11)
        #expect(new)
        #expect(cursor.isCaughtUp)
    }

    @Test func thisDaemonsEntryInItsWriteIsLeftToThatWrite() {
        var cursor = CommitCursor(startingAt: 10)
        cursor.appended(11)
        // The notification can come before the write delivers its entry: nothing to read, yet not caught up.
        let read = cursor.notify(11)
        #expect(!read)
        #expect(!cursor.isCaughtUp)
        let new = cursor.deliver(11)
        #expect(new)
        cursor.writeEnded()
        #expect(cursor.isCaughtUp)
        #expect(cursor.writing == nil)
    }

    @Test func anEntryDeliveredAlreadyIsNotReadAgain() {
        var cursor = CommitCursor(startingAt: 10)
        cursor.appended(11)
        let new = cursor.deliver(11)
        #expect(new)
        cursor.writeEnded()
        let readAfterItsWrite = cursor.notify(11)
        #expect(!readAfterItsWrite, "the write delivered it before its notification came")
        let readOlder = cursor.notify(9)
        #expect(!readOlder)
        let newAgain = cursor.deliver(11)
        #expect(!newAgain, "delivered once")
        #expect(cursor.isCaughtUp)
    }

    @Test func anotherDaemonsEntryDuringThisDaemonsWriteIsStillRead() {
        var cursor = CommitCursor(startingAt: 10)
        cursor.appended(12)
        let readBefore = cursor.notify(11)
        #expect(readBefore, "committed elsewhere before this write")
        let readAfter = cursor.notify(13)
        #expect(readAfter, "committed elsewhere after it")
        let readOwn = cursor.notify(12)
        #expect(!readOwn)
    }

    @Test func aWriteThatFailedLeavesItsEntryToTheLog() {
        var cursor = CommitCursor(startingAt: 10)
        cursor.appended(11)
        // Committed, then the read of the entries before it failed: the write ended without delivering it.
        cursor.writeEnded()
        let read = cursor.notify(11)
        #expect(read)
        #expect(!cursor.isCaughtUp)
    }

    @Test func anEntryWhoseWriteEndedUndeliveredAfterItsNotificationIsLeftToTheNextCatchUp() {
        var cursor = CommitCursor(startingAt: 10)
        cursor.appended(11)
        let read = cursor.notify(11)
        #expect(!read, "its write was under way")
        // Its commit's answer was lost, or the read of the entries before it failed: nothing delivered it.
        cursor.writeEnded()
        #expect(!cursor.isCaughtUp, "not current until a catch-up (the heartbeat's, a request's) delivers it")
        let new = cursor.deliver(11)
        #expect(new)
        #expect(cursor.isCaughtUp)
    }

    @Test func anUnreadableNotificationIsReadFromTheLog() {
        var cursor = CommitCursor(startingAt: 10)
        cursor.appended(11)
        let read = cursor.notify(nil)
        #expect(read)
        #expect(cursor.isCaughtUp, "it named no entry")
    }
}
