import Testing

@testable import TwitterPostgres

/// The lease a daemon on a shared database holds to answer from its caches (`ReadLease`): renewed only while
/// listening, for its duration from when the heartbeat was sent, never shortened, ended by a heartbeat that finds
/// a commit withdrawing access it has not delivered, and by the LISTEN connection's loss.
struct ReadLeaseTests {
    let start = ContinuousClock.now

    @Test func aHeartbeatRenewsOnlyWhileListening() {
        let notListening = ReadLease.notListening
        #expect(notListening.renewed(sentAt: start) == .notListening)
        let held = notListening.startedListening().renewed(sentAt: start)
        #expect(held == .held(until: start + ReadLease.duration))
        #expect(held.isHeld(at: start))
        #expect(!notListening.isHeld(at: start))
        #expect(!ReadLease.listening.isHeld(at: start))
    }

    @Test func theLeaseRunsOutItsDurationAfterTheHeartbeatWasSent() {
        let held = ReadLease.listening.renewed(sentAt: start)
        #expect(held.isHeld(at: start + ReadLease.duration - .milliseconds(1)))
        #expect(!held.isHeld(at: start + ReadLease.duration))
    }

    @Test func aLaterRenewalNeverShortensTheLease() {
        let later = ReadLease.listening.renewed(sentAt: start + .seconds(1))
        // A slow heartbeat sent earlier that answers after a faster one.
        #expect(later.renewed(sentAt: start) == later)
        #expect(later.renewed(sentAt: start + .seconds(2)) == .held(until: start + .seconds(2) + ReadLease.duration))
    }

    @Test func aWithdrawalNotYetDeliveredOrAFailedHeartbeatEndsTheLeaseButNotTheListening() {
        let held = ReadLease.listening.renewed(sentAt: start)
        #expect(held.lapsed() == .listening)
        #expect(!held.lapsed().isHeld(at: start))
        #expect(held.lapsed().renewed(sentAt: start).isHeld(at: start), "the next heartbeat renews")
        #expect(ReadLease.notListening.lapsed() == .notListening)
    }

    @Test func losingTheListeningConnectionEndsTheLeaseUntilListeningAgain() {
        let held = ReadLease.listening.renewed(sentAt: start)
        let lost = held.stoppedListening()
        #expect(lost == .notListening)
        #expect(!lost.isHeld(at: start))
        #expect(lost.renewed(sentAt: start) == .notListening)
        #expect(held.startedListening() == held, "LISTEN taking effect again keeps a lease that holds")
    }
}
