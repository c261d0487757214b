import Synchronization
import Testing

@testable import TwitterPostgres

/// The one watcher that gives up on calls waiting too long for a pooled connection (`LeaseDeadlines`): a call
/// that waited the timeout is cancelled and marked expired; one that got its connection is never cancelled, however
/// long its queries take; one that expires before it is armed is cancelled as soon as it is; and the clock starts
/// when the call asks the pool, not when it was made.
struct LeaseDeadlinesTests {
    let start = ContinuousClock.now

    final class Cancelled: Sendable {
        let count = Mutex(0)
        func cancel() { count.withLock { $0 += 1 } }
        var times: Int { count.withLock { $0 } }
    }

    @Test func aCallWaitingTheTimeoutIsCancelledAndExpired() {
        let leases = LeaseDeadlines(timeout: .seconds(2))
        let cancelled = Cancelled()
        let id = leases.begin(at: start)
        leases.arm(id, cancel: cancelled.cancel)
        #expect(leases.expire(at: start + .milliseconds(1999)) == 0)
        #expect(cancelled.times == 0)
        #expect(leases.expire(at: start + .seconds(2)) == 1)
        #expect(cancelled.times == 1)
        #expect(leases.lease(of: id) == .expired)
        #expect(!leases.leased(id), "a connection that comes after the answer is not used")
        #expect(leases.expire(at: start + .seconds(10)) == 0, "cancelled once")
        #expect(leases.end(id))
        #expect(leases.lease(of: id) == nil)
    }

    @Test func aLeasedCallIsNeverCancelled() {
        let leases = LeaseDeadlines(timeout: .seconds(2))
        let cancelled = Cancelled()
        let id = leases.begin(at: start)
        leases.arm(id, cancel: cancelled.cancel)
        #expect(leases.leased(id))
        #expect(leases.expire(at: start + .seconds(60)) == 0)
        #expect(cancelled.times == 0)
        #expect(leases.lease(of: id) == .leased)
        #expect(!leases.end(id))
    }

    @Test func aCallThatExpiresBeforeItIsArmedIsCancelledWhenArmed() {
        let leases = LeaseDeadlines(timeout: .seconds(2))
        let cancelled = Cancelled()
        let id = leases.begin(at: start)
        #expect(leases.expire(at: start + .seconds(3)) == 0, "nothing to call yet")
        #expect(leases.lease(of: id) == .expired)
        leases.arm(id, cancel: cancelled.cancel)
        #expect(cancelled.times == 1)
    }

    @Test func callsExpireEachOnItsOwnClock() {
        let leases = LeaseDeadlines(timeout: .seconds(2))
        let first = leases.begin(at: start)
        let second = leases.begin(at: start + .seconds(1))
        leases.arm(first) {}
        leases.arm(second) {}
        #expect(leases.expire(at: start + .milliseconds(2500)) == 1)
        #expect(leases.lease(of: first) == .expired)
        #expect(leases.lease(of: second) == .waiting(since: start + .seconds(1)))
    }

    /// Before, the clock started when the call was made, so a call still queued for a thread of the cooperative
    /// pool counted that time as waiting for a connection: under the parallel store suite the watcher answered
    /// -32008 75 to 79 times, the timer per call 9 to 21. A call that has not asked the pool never expires.
    @Test func theClockStartsWhenTheCallAsksThePool() {
        let leases = LeaseDeadlines(timeout: .seconds(2))
        let cancelled = Cancelled()
        let id = leases.reserve()
        leases.arm(id, cancel: cancelled.cancel)
        #expect(leases.expire(at: .now + .seconds(60)) == 0)
        #expect(leases.lease(of: id) == .reserved)
        let asked = ContinuousClock.now
        leases.asking(id, at: asked)
        #expect(leases.expire(at: asked + .milliseconds(1999)) == 0)
        #expect(leases.expire(at: asked + .seconds(2)) == 1)
        #expect(cancelled.times == 1)
    }
}

extension LeaseDeadlines {
    /// A new call, asking the pool from `now`.
    fileprivate func begin(at now: ContinuousClock.Instant) -> Int {
        let id = reserve()
        asking(id, at: now)
        return id
    }
}
