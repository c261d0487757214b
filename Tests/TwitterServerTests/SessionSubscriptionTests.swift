import Testing
import TwitterCore
import TwitterRuntime

@testable import TwitterServer

/// A subscription streams what its login may see, so it ends with that login.
struct SessionSubscriptionTests {
    struct IdleForwarder: StreamForwarding {
        let id: Int
        let subscription: CommitSubscription
        var liveSubscription: any LiveSubscription { subscription }
        func run(send: @Sendable ([UInt8]) async throws -> Void) async {}
    }

    static func subscribed(_ probe: LiveLoginsTests.Probe, hub: CommitHub) throws -> CommitSubscription {
        let subscription = hub.subscribeToNotifications(of: 1)
        _ = try probe.session.addSubscription { id in IdleForwarder(id: id, subscription: subscription) }
        return subscription
    }

    @Test func loggingOutOrInAsAnotherAccountEndsTheSubscriptions() async throws {
        let (hub, registry) = (CommitHub(), LiveLogins())
        let probe = LiveLoginsTests.Probe(id: 1)
        probe.session.logIn(LiveLoginsTests.login(user: 1, token: 10), listedIn: registry)
        let first = try Self.subscribed(probe, hub: hub)
        probe.session.logIn(LiveLoginsTests.login(user: 1, token: 11), listedIn: registry)
        #expect(probe.session.hasSubscriptions, "the same account again keeps its streams")
        probe.session.logOut()
        #expect(await first.next() == nil && !probe.session.hasSubscriptions)

        probe.session.logIn(LiveLoginsTests.login(user: 1, token: 12), listedIn: registry)
        let second = try Self.subscribed(probe, hub: hub)
        probe.session.logIn(LiveLoginsTests.login(user: 2, token: 20), listedIn: registry)
        #expect(await second.next() == nil && !probe.session.hasSubscriptions, "another account's login ends them")
        #expect(hub.subscriptionCount == 0)
    }
}
