import Foundation
import Synchronization
import Testing
import TwitterCore
import TwitterRuntime

@testable import TwitterServer

/// Which logins a revocation reaches, and what a reached connection sees.
struct LiveLoginsTests {
    /// A connection whose notification lines are collected instead of written to a socket.
    struct Probe {
        final class Lines: Sendable {
            let all = Mutex<[String]>([])
        }
        let sent = Lines()
        let session: ConnectionSession

        init(id: Int, uid: UInt32 = 1000) {
            let sent = self.sent
            session = ConnectionSession(id: id, peer: PeerCredentials(userID: uid, groupID: uid, processID: 1)) {
                line in sent.all.withLock { $0.append(String(decoding: line, as: UTF8.self)) }
            }
        }

        var lines: [String] { sent.all.withLock { $0 } }
    }

    static func login(
        user: Int64, provider: String = "password", token: Int64, kind: TokenKind = .session, expiresAt: Date? = nil
    ) -> SessionLogin {
        SessionLogin(
            userID: user, provider: provider,
            token: IssuedSession(id: token, token: "secret", expiresAt: expiresAt, kind: kind))
    }

    /// A session or token that expires while its connection is open once went on working there; it ends at its
    /// first use past `expiresAt`, and leaves the live logins as a revocation would.
    @Test func aLoginEndsAtItsFirstUsePastItsExpiry() throws {
        let registry = LiveLogins()
        let probe = Probe(id: 1)
        let expiry = Date(timeIntervalSince1970: 1_800_000_000)
        probe.session.logIn(Self.login(user: 1, token: 10, expiresAt: expiry), listedIn: registry)
        #expect(try probe.session.requireLogin(now: expiry.addingTimeInterval(-1)).userID == 1)
        #expect(registry.count == 1)
        #expect(throws: TwitterError.self) { try probe.session.requireLogin(now: expiry) }
        do {
            _ = try probe.session.requireLogin(now: expiry.addingTimeInterval(60))
            Issue.record("an expired login was served")
        } catch {
            #expect(error.kind == .unauthenticated)
            #expect(error.details["reason"] == .string("expired"))
        }
        #expect(registry.count == 0, "it left the live logins")
    }

    /// A connection that only listens once kept streaming past its login's expiry, since nothing it sent met
    /// `requireLogin`: the expiry timer ends the login at `expiresAt`, told as a revocation is, and its
    /// subscriptions end with it.
    @Test func aListeningLoginIsToldAtItsExpiryAndItsSubscriptionsEnd() async throws {
        let (hub, registry) = (CommitHub(), LiveLogins())
        let probe = Probe(id: 1)
        probe.session.logIn(
            Self.login(user: 1, token: 10, kind: .personal, expiresAt: Date().addingTimeInterval(0.3)),
            listedIn: registry)
        let subscription = try SessionSubscriptionTests.subscribed(probe, hub: hub)
        #expect(probe.session.isServingSubscriptions)

        // Waits for the event itself: the subscription ends once the login has expired.
        #expect(await subscription.next() == nil)
        #expect(probe.lines.count == 1)
        #expect(probe.lines.first?.contains(#""method":"auth.revoked""#) == true)
        #expect(probe.lines.first?.contains(#""reason":"expired""#) == true)
        #expect(!probe.session.isServingSubscriptions)
        #expect(probe.session.login == nil)
        #expect(registry.count == 0)
        let error = #expect(throws: TwitterError.self) { try probe.session.requireLogin() }
        #expect(error?.details["reason"] == .string("expired"))
    }

    /// A login that ends otherwise first (a logout, another login) is not told of the old one's expiry.
    @Test func aLoginThatEndsBeforeItsExpiryIsNotToldOfIt() async throws {
        let registry = LiveLogins()
        let probe = Probe(id: 1)
        let soon = Date().addingTimeInterval(0.2)
        probe.session.logIn(Self.login(user: 1, token: 10, expiresAt: soon), listedIn: registry)
        probe.session.logIn(
            Self.login(user: 1, token: 11, expiresAt: soon.addingTimeInterval(3600)), listedIn: registry)
        // The later login's own timer is the one kept: past the first expiry, a fresh request is still served.
        probe.session.expireLogin(now: soon.addingTimeInterval(1), notify: true)
        #expect(probe.lines.isEmpty)
        #expect(try probe.session.requireLogin(now: soon.addingTimeInterval(1)).tokenID == 11)
    }

    @Test func aTokenRevocationReachesOnlyTheConnectionsOnThatToken() async throws {
        let registry = LiveLogins()
        let onToken = Probe(id: 1)
        let sameUserOtherToken = Probe(id: 2)
        let otherUserSameNumber = Probe(id: 3)
        onToken.session.logIn(Self.login(user: 1, token: 10), listedIn: registry)
        sameUserOtherToken.session.logIn(Self.login(user: 1, token: 11), listedIn: registry)
        otherUserSameNumber.session.logIn(Self.login(user: 2, token: 10), listedIn: registry)

        let cut = registry.revoke(.token(id: 10, userID: 1, reason: .tokenRevoked))

        #expect(cut.map(\.tokenID) == [10])
        #expect(onToken.session.login == nil)
        #expect(onToken.lines.count == 1)
        #expect(onToken.lines.first?.contains(#""method":"auth.revoked""#) == true)
        #expect(onToken.lines.first?.contains(#""reason":"tokenRevoked""#) == true)
        #expect(sameUserOtherToken.session.login != nil)
        #expect(otherUserSameNumber.session.login != nil)
        #expect(registry.count == 2)
        let error = #expect(throws: TwitterError.self) { try onToken.session.requireLogin() }
        #expect(error?.kind == .unauthenticated)
        #expect(error?.details["reason"] == .string("tokenRevoked"))
    }

    @Test func aPasswordChangeSparesTheCallerAndPersonalTokens() async {
        let registry = LiveLogins()
        let caller = Probe(id: 1)
        let otherSession = Probe(id: 2)
        let script = Probe(id: 3)
        caller.session.logIn(Self.login(user: 1, token: 10), listedIn: registry)
        otherSession.session.logIn(Self.login(user: 1, token: 11), listedIn: registry)
        script.session.logIn(Self.login(user: 1, token: 12, kind: .personal), listedIn: registry)

        registry.revoke(.otherSessions(userID: 1, keeping: 10))

        #expect(caller.session.login != nil)
        #expect(otherSession.session.login == nil)
        #expect(script.session.login != nil)
    }

    @Test func unlinkingAPeerReachesPeerLoginsOfThatUidOnly() async {
        let registry = LiveLogins()
        let peer = Probe(id: 1, uid: 1000)
        let otherUID = Probe(id: 2, uid: 1001)
        let byPassword = Probe(id: 3, uid: 1000)
        peer.session.logIn(Self.login(user: 1, provider: "peer", token: 10), listedIn: registry)
        otherUID.session.logIn(Self.login(user: 1, provider: "peer", token: 11), listedIn: registry)
        byPassword.session.logIn(Self.login(user: 1, token: 12), listedIn: registry)

        registry.revoke(.peerLink(uid: 1000, userID: 1))

        #expect(peer.session.login == nil)
        #expect(otherUID.session.login != nil)
        #expect(byPassword.session.login != nil)
    }

    @Test func theRequesterIsLoggedOutWithoutANotificationAndClosedConnectionsLeave() async {
        let registry = LiveLogins()
        let requester = Probe(id: 1)
        requester.session.logIn(Self.login(user: 1, token: 10), listedIn: registry)
        registry.revoke(.token(id: 10, userID: 1, reason: .tokenRevoked), requester: requester.session)
        #expect(requester.session.login == nil)
        #expect(requester.lines.isEmpty)

        let closing = Probe(id: 2)
        closing.session.logIn(Self.login(user: 1, token: 11), listedIn: registry)
        #expect(registry.count == 1)
        closing.session.connectionClosed()
        #expect(registry.count == 0)
    }
}
