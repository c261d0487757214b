import Synchronization
import Testing
import TwitterCore

@testable import TwitterServer

/// Revocations between daemons: a daemon's own are broadcast, the others' arrive through the relay.
struct RevocationRelayTests {
    final class Recorder: TweetCommitObserving, OtherDaemons {
        let events = Mutex<[TweetEvent]>([])
        let broadcast = Mutex<[Revocation]>([])
        let broadcastArrived = AsyncStream<Void>.makeStream()

        func committed(_ events: [TweetEvent]) { self.events.withLock { $0 += events } }

        var mayExist: Bool { true }

        func catchUp() async throws {}

        func broadcast(_ revocation: Revocation) async throws {
            broadcast.withLock { $0.append(revocation) }
            broadcastArrived.continuation.yield()
        }
    }

    @Test func anotherDaemonsRevocationCutsTheConnectionAndTheRestGoesToTheReadModel() {
        let logins = LiveLogins()
        let next = Recorder()
        let relay = RevocationRelay(next: next, liveLogins: logins)
        let probe = LiveLoginsTests.Probe(id: 1)
        probe.session.logIn(LiveLoginsTests.login(user: 7, token: 70), listedIn: logins)
        let bystander = LiveLoginsTests.Probe(id: 2)
        bystander.session.logIn(LiveLoginsTests.login(user: 8, token: 80), listedIn: logins)

        relay.committed([
            .followed(followerID: 1, followeeID: 2), .revoked(.account(userID: 7, reason: .suspended)),
            .unfollowed(followerID: 1, followeeID: 2),
        ])

        #expect(probe.session.login == nil)
        #expect(probe.lines.first?.contains(#""reason":"suspended""#) == true)
        #expect(bystander.session.login != nil)
        #expect(
            next.events.withLock { $0 } == [
                .followed(followerID: 1, followeeID: 2), .unfollowed(followerID: 1, followeeID: 2),
            ])
    }

    @Test func aRevocationMadeHereIsBroadcastButOneFromElsewhereIsNot() async {
        let logins = LiveLogins()
        let broadcaster = Recorder()
        logins.broadcast(through: broadcaster)
        logins.revokeFromElsewhere(.token(id: 1, userID: 1, reason: .loggedOut))
        logins.revoke(.token(id: 2, userID: 1, reason: .tokenRevoked))
        for await _ in broadcaster.broadcastArrived.stream { break }
        #expect(broadcaster.broadcast.withLock { $0 } == [.token(id: 2, userID: 1, reason: .tokenRevoked)])
    }
}
