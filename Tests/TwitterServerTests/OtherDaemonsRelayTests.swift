import Foundation
import Synchronization
import Testing
import TwitterCore

@testable import TwitterServer

/// What another daemon did, acted on here: revocations reach the live logins, writes the rate buckets.
struct OtherDaemonsRelayTests {
    final class Recorder: CommitObserving, OtherDaemons {
        let events = Mutex<[CommitEvent]>([])

        func committed(_ events: [CommitEvent]) { self.events.withLock { $0 += events } }

        var mayExist: Bool { true }

        let current = Mutex(false)
        var isCurrent: Bool { current.withLock { $0 } }

        let catchUps = Mutex(0)
        func catchUp() async throws { catchUps.withLock { $0 += 1 } }
    }

    @Test func anotherDaemonsRevocationCutsTheConnectionAndTheRestGoesToTheReadModel() {
        let logins = LiveLogins()
        let next = Recorder()
        let relay = OtherDaemonsRelay(next: next, liveLogins: logins)
        let probe = LiveLoginsTests.Probe(id: 1)
        probe.session.logIn(LiveLoginsTests.login(user: 7, token: 70), listedIn: logins)
        let bystander = LiveLoginsTests.Probe(id: 2)
        bystander.session.logIn(LiveLoginsTests.login(user: 8, token: 80), listedIn: logins)

        relay.committedElsewhere([
            .relation(.followed(followerID: 1, followeeID: 2)),
            .account(.revoked(.account(userID: 7, reason: .suspended))),
            .relation(.unfollowed(followerID: 1, followeeID: 2)),
        ])

        #expect(probe.session.login == nil)
        #expect(probe.lines.first?.contains(#""reason":"suspended""#) == true)
        #expect(bystander.session.login != nil)
        #expect(
            next.events.withLock { $0 } == [
                .relation(.followed(followerID: 1, followeeID: 2)),
                .relation(.unfollowed(followerID: 1, followeeID: 2)),
            ])
    }

    @Test func anotherDaemonsWritesTakeFromTheSameRateBuckets() throws {
        let clock = Date(timeIntervalSince1970: 1_000_000)
        let rates = WriteRateLimiter(
            limits: [
                .posts: try #require(RateLimit(parsing: "2/1h")), .likes: try #require(RateLimit(parsing: "1/1h")),
            ], store: nil,
            clock: { clock })
        let relay = OtherDaemonsRelay(next: Recorder(), liveLogins: LiveLogins())
        relay.charge(to: rates)
        let author = Tweet.Author(id: 5, username: "five")
        relay.committedElsewhere([
            .tweet(.posted(Tweet(id: 1, author: author, text: "one", createdAt: clock))),
            .tweet(.liked(id: 1, userID: 6)),
        ])
        // This daemon's own commit is no take: the write took when it was asked for.
        relay.committed([.tweet(.posted(Tweet(id: 2, author: author, text: "two", createdAt: clock)))])
        try rates.take(.posts, by: 5)
        #expect(throws: TwitterError.self) { try rates.take(.posts, by: 5) }
        #expect(throws: TwitterError.self) { try rates.take(.likes, by: 6) }
        try rates.take(.likes, by: 7)
    }

    /// Issue #48, item 7: blocks, mutes and bookmarks made through another daemon spend this daemon's buckets too,
    /// both ways (a write and its undo share one), so a storm spread over the daemons meets one allowance.
    @Test func anotherDaemonsBlocksMutesAndBookmarksTakeFromTheSameRateBuckets() throws {
        let clock = Date(timeIntervalSince1970: 1_000_000)
        let oneADay = try #require(RateLimit(parsing: "2/1d"))
        let rates = WriteRateLimiter(
            limits: [.blocks: oneADay, .mutes: oneADay, .bookmarks: oneADay], store: nil, clock: { clock })
        let relay = OtherDaemonsRelay(next: Recorder(), liveLogins: LiveLogins())
        relay.charge(to: rates)
        relay.committedElsewhere([
            .relation(.blocked(blockerID: 5, blockedID: 9)), .relation(.unblocked(blockerID: 5, blockedID: 9)),
            .relation(.muted(muterID: 6, mutedID: 9)), .relation(.unmuted(muterID: 6, mutedID: 9)),
            .tweet(.bookmarked(id: 1, userID: 7)), .tweet(.unbookmarked(id: 1, userID: 7)),
        ])
        for (action, user) in [(RateLimitedAction.blocks, Int64(5)), (.mutes, 6), (.bookmarks, 7)] {
            #expect(throws: TwitterError.self, "\(action)") { try rates.take(action, by: user) }
            try rates.take(action, by: 9)
        }
    }

    /// This daemon's own revocations are logged by the write that makes them, for the other daemons, and acted on
    /// here by the call: the read model is never handed them (`AccountEvent.revoked`), nor does the relay cut
    /// anyone off for them, which would tell the requester too.
    @Test func aRevocationMadeHereGoesNeitherToTheReadModelNorToTheLiveLogins() {
        let logins = LiveLogins()
        let next = Recorder()
        let relay = OtherDaemonsRelay(next: next, liveLogins: logins)
        let probe = LiveLoginsTests.Probe(id: 1)
        probe.session.logIn(LiveLoginsTests.login(user: 7, token: 70), listedIn: logins)
        relay.committed([
            .account(.revoked(.token(id: 70, userID: 7, reason: .loggedOut))),
            .relation(.followed(followerID: 1, followeeID: 2)),
        ])
        #expect(next.events.withLock { $0 } == [.relation(.followed(followerID: 1, followeeID: 2))])
        #expect(probe.session.login != nil)
        #expect(probe.lines.isEmpty)
    }

    /// A daemon with others catches up before it serves a logged-in request, unless it is current.
    @Test func servingWaitsForTheOthers() async throws {
        let logins = LiveLogins()
        #expect(logins.catchUpBeforeServing == nil, "alone, nothing to wait for")
        logins.reckon(with: Recorder())
        let preparation = try #require(logins.catchUpBeforeServing)
        let served = try await preparation { Array("served".utf8) }
        #expect(served == Array("served".utf8))
    }

    /// A daemon that is current (holding its lease, every notified commit delivered) serves a logged-in request
    /// with no catch-up: the revocations answered elsewhere have been applied here before they were answered.
    /// One that is not reads the log first.
    @Test func aCurrentDaemonServesWithoutCatchingUpAndOneThatIsNotCatchesUpFirst() async throws {
        let logins = LiveLogins()
        let others = Recorder()
        logins.reckon(with: others)
        others.current.withLock { $0 = true }
        #expect(logins.catchUpBeforeServing == nil)
        others.current.withLock { $0 = false }
        let preparation = try #require(logins.catchUpBeforeServing)
        let served = try await preparation { Array("served".utf8) }
        #expect(served == Array("served".utf8))
        #expect(others.catchUps.withLock { $0 } == 1)
    }
}
