import Synchronization
import Testing
import TwitterCore
import TwitterRuntime

/// The small concurrency mechanisms both stores build on: the group commit's queue, the slot a write's outcome
/// arrives in, and the lock that keeps the PostgreSQL store's ordered writes in order.
struct ConcurrencyTests {
    @Test func theFirstWriteLeadsAndTheNextBatchTakesEverythingThatWaited() throws {
        let queue = GroupCommitQueue<Int, Int>(maximumBatch: 3)
        #expect(queue.enqueue(1).leads)
        #expect(!queue.enqueue(2).leads, "a commit loop is already running")
        #expect(!queue.enqueue(3).leads)
        #expect(!queue.enqueue(4).leads)
        #expect(try #require(queue.nextBatch()).map(\.item) == [1, 2, 3], "oldest first, at most maximumBatch")
        #expect(try #require(queue.nextBatch()).map(\.item) == [4], "the rest, the whole queue taken at once")
        #expect(queue.nextBatch() == nil, "an empty queue ends the loop")
        #expect(queue.enqueue(5).leads, "and the next write starts a new one")
        #expect(!queue.enqueue(6).leads)
        #expect(try #require(queue.nextBatch()).map(\.item) == [5, 6], "a queue taken whole starts again empty")
        #expect(queue.nextBatch() == nil)
    }

    @Test func eachWriteLearnsItsOwnOutcome() async throws {
        let queue = GroupCommitQueue<String, String>(maximumBatch: 10)
        let first = queue.enqueue("a").outcome
        let second = queue.enqueue("b").outcome
        let batch = try #require(queue.nextBatch())
        batch[0].outcome.fulfil(.success("A"))
        batch[1].outcome.fulfil(.failure(Refused()))
        #expect(try await first.value() == "A")
        await #expect(throws: Refused.self) { try await second.value() }
    }

    @Test func anOutcomeSetBeforeOrAfterTheWaitArrivesOnceAndKeepsTheFirst() async throws {
        let early = OutcomeSlot<Int>()
        early.fulfil(.success(1))
        early.fulfil(.success(2))
        #expect(try await early.value() == 1)

        let late = OutcomeSlot<Int>()
        async let waited = late.value()
        late.fulfil(.success(3))
        #expect(try await waited == 3)
    }

    @Test func theLockRunsOneBodyAtATimeAndIsFreedByAThrow() async throws {
        let lock = AsyncLock()
        let record = Record()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await lock.withLock {
                        #expect(
                            record.inside.withLock {
                                $0 += 1; return $0
                            } == 1, "one body at a time")
                        record.log.withLock { $0.append("start \(index)") }
                        await Task.yield()
                        record.log.withLock { $0.append("end \(index)") }
                        record.inside.withLock { $0 -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        let entries = record.log.withLock { $0 }
        #expect(entries.count == 40)
        for pair in stride(from: 0, to: entries.count, by: 2) {
            #expect(entries[pair].dropFirst(6) == entries[pair + 1].dropFirst(4), "no body interleaves another")
        }
        // A body that throws still frees the lock.
        await #expect(throws: Refused.self) { try await lock.withLock { throw Refused() } }
        #expect(try await lock.withLock { "free" } == "free")
    }

    private struct Refused: Error {}

    private final class Record: Sendable {
        let log = Mutex<[String]>([])
        let inside = Mutex(0)
    }
}
