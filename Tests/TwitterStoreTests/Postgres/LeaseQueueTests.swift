import Synchronization
import Testing

@testable import TwitterPostgres

/// `LeaseQueue`, the pooled connections' lease with a timeout and no task per call, over a pool of numbers
/// whose leases come when the test opens the gate.
@Suite(.timeLimit(.minutes(1))) struct LeaseQueueTests {
    /// A pool of resources (numbers) that hands one out only while its gate is open, counting what it does.
    final class FakePool: Sendable {
        private let state = Mutex((open: true, leased: 0, mostLeased: 0, leases: 0))

        init(open: Bool = true) {
            state.withLock { $0.open = open }
        }

        func open() { state.withLock { $0.open = true } }
        var leased: Int { state.withLock { $0.leased } }
        var mostLeased: Int { state.withLock { $0.mostLeased } }
        var leases: Int { state.withLock { $0.leases } }

        /// The lease `LeaseQueue` calls: waits for the gate, then lends resource 7 while `use` runs.
        func lease(_ use: (Int) async -> Void) async throws {
            while !state.withLock({ $0.open }) { try await Task.sleep(for: .milliseconds(5)) }
            state.withLock { state in
                state.leased += 1
                state.leases += 1
                state.mostLeased = max(state.mostLeased, state.leased)
            }
            await use(7)
            state.withLock { $0.leased -= 1 }
        }

        func queue(workers: Int, timeout: Duration) -> LeaseQueue<Int> {
            LeaseQueue(workers: workers, timeout: timeout) { use in try await self.lease(use) }
        }
    }

    /// Runs `queue` while `body` runs.
    func running<Result>(_ queue: LeaseQueue<Int>, _ body: () async throws -> Result) async rethrows -> Result {
        let runner = Task { await queue.run() }
        defer { runner.cancel() }
        return try await body()
    }

    @Test func aCallerIsHandedAResourceAndGivesItBackWhenItsBodyEnds() async throws {
        let pool = FakePool()
        let queue = pool.queue(workers: 2, timeout: .seconds(10))
        let answer = try await running(queue) {
            try await queue.withResource { resource in
                #expect(pool.leased == 1)
                return resource * 6
            }
        }
        #expect(answer == 42)
        try await Self.eventually { pool.leased == 0 }
    }

    @Test func aCallerHandedNothingInTimeIsToldSoAndItsBodyNeverRuns() async throws {
        let pool = FakePool(open: false)
        let queue = pool.queue(workers: 1, timeout: .milliseconds(100))
        let ran = Mutex(false)
        try await running(queue) {
            await #expect(throws: LeaseFailure.timedOut) {
                try await queue.withResource { _ in ran.withLock { $0 = true } }
            }
            // The lease that comes late finds no caller, and goes back to the pool; the next caller is served.
            pool.open()
            try await Self.eventually { pool.leases == 1 && pool.leased == 0 }
            #expect(try await queue.withResource { $0 } == 7)
        }
        #expect(!ran.withLock { $0 })
    }

    @Test func moreCallersThanWorkersAreAllServedNeverHoldingMoreThanTheWorkers() async throws {
        let pool = FakePool()
        let queue = pool.queue(workers: 3, timeout: .seconds(10))
        let served = try await running(queue) {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<40 {
                    group.addTask {
                        try await queue.withResource { resource in
                            try await Task.sleep(for: .milliseconds(2))
                            return resource
                        }
                    }
                }
                return try await group.reduce(0) { count, _ in count + 1 }
            }
        }
        #expect(served == 40)
        #expect(pool.mostLeased <= 3)
    }

    @Test func aCallerCancelledWhileWaitingStopsWaiting() async throws {
        let pool = FakePool(open: false)
        let queue = pool.queue(workers: 1, timeout: .seconds(60))
        try await running(queue) {
            let caller = Task { try await queue.withResource { $0 } }
            try await Task.sleep(for: .milliseconds(50))
            caller.cancel()
            await #expect(throws: CancellationError.self) { try await caller.value }
        }
    }

    @Test func aStoppedQueueRefusesCallers() async throws {
        let pool = FakePool()
        let queue = pool.queue(workers: 1, timeout: .seconds(10))
        let runner = Task { await queue.run() }
        runner.cancel()
        await runner.value
        await #expect(throws: LeaseFailure.stopped) { try await queue.withResource { $0 } }
    }

    /// Waits until `condition` holds, for at most 10 s.
    static func eventually(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("the condition never held")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
