import JSONRPC
import Synchronization
import Testing
import TwitterAPI
import TwitterCore
import TwitterServer

@testable import MastodonAPI

/// A Mastodon stream over the real layer: `MastodonStream.subscribe` starts the layer's subscriptions on the
/// caller's session, and the lines the session is then sent translate into Mastodon's events.
struct StreamOverLayerTests {
    /// The lines a session was sent, handed to the one test waiting for the next.
    final class Lines: Sendable {
        private let stream: AsyncStream<[UInt8]>
        private let continuation: AsyncStream<[UInt8]>.Continuation

        init() {
            (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        }

        func deliver(_ line: [UInt8]) { continuation.yield(line) }

        /// The next line translated for `stream` that is not ignored.
        func nextEvent(for stream: MastodonStream, caller: String) async -> MastodonStreamLine? {
            for await line in self.stream {
                let translated = MastodonStreamEvents.translate(
                    line: line, stream: stream, caller: caller, origin: MastodonTestLayer.origin)
                if translated != .ignored { return translated }
            }
            return nil
        }
    }

    @Test func theUserStreamCarriesAFollowedPostAndTheNotificationOfALike() async throws {
        let layer = try await MastodonTestLayer()
        let lines = Lines()
        let bob = try await layer.signUp("bob") { lines.deliver($0) }
        let alice = try await layer.signUp("alice")
        _ = try await bob.json("POST", "/api/v1/accounts/alice/follow")
        let subscriptions = try await MastodonStream.user.subscribe(with: bob)
        #expect(subscriptions.count == 2)
        let forwarders = bob.startForwarders(lines.deliver)

        let post = try await alice.json("POST", "/api/v1/statuses", ["status": ["hello #world"]])
        guard case .event(let update)? = await lines.nextEvent(for: .user, caller: "bob") else {
            Issue.record("no update")
            return
        }
        #expect(update.event == "update")
        #expect(subscriptions.contains(update.subscription))
        let status = try Fixtures.parse(update.payload)
        #expect(status["id"] == post["id"])
        #expect(status["content"] == post["content"])

        let mine = try await bob.json("POST", "/api/v1/statuses", ["status": ["mine"]])
        let mineID = try #require(EndpointTests.id(mine))
        _ = try await alice.json("POST", "/api/v1/statuses/\(mineID)/favourite")
        // bob's own post comes on his home timeline too, from another subscription: in either order.
        var notification: MastodonStreamEvent?
        while notification == nil, case .event(let event)? = await lines.nextEvent(for: .user, caller: "bob") {
            if event.event == "notification" { notification = event }
        }
        let payload = try Fixtures.parse(try #require(notification).payload)
        #expect(payload["type"] == "favourite")
        #expect(payload["account"]?["acct"] == "alice")
        #expect(payload["status"]?["id"] == .string(mineID))

        bob.session.connectionClosed()
        for forwarder in forwarders { await forwarder.value }
    }
}
