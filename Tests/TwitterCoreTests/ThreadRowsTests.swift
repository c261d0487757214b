import Testing
import TwitterCore

/// How far a store reads a thread.
struct ThreadRowsTests {
    @Test func aThreadIsReadWithinItsBounds() {
        #expect(ThreadRows.room(read: 0, readOfLevel: 0, limit: 200) == ThreadRows.levelReadLimit)
        #expect(ThreadRows.room(read: 9_500, readOfLevel: 0, limit: 200) == 500)
        #expect(ThreadRows.room(read: 400, readOfLevel: 1_000, limit: 200) == 0)
        #expect(ThreadRows.room(read: 0, readOfLevel: 0, limit: 20_000) == 20_001, "never fewer than asked for")
        #expect(ThreadRows.levelReadLimit > Conversation.descendantLimit)
        #expect(ThreadRows.parentBatch * 2 < 32_766, "SQLite's host parameters, a level's ids listed twice")
    }
}
