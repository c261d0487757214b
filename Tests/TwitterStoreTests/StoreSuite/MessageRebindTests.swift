import Foundation
import Testing
import TwitterCore

/// The start-up re-seal of texts sealed before they were bound to their rows (issue #48), on every backend: each
/// unmarked text is written again once, for its own row, even by two passes at once (two daemons starting on one
/// PostgreSQL database), and a pass done leaves nothing for the next.
struct MessageRebindTests {
    static let marker = Array("TWM1".utf8)

    /// What the test's "sealer" makes of a text for a place: the marker, the place, the old bytes.
    static func rebound(_ place: MessagePlace, _ old: [UInt8]) -> [UInt8] {
        marker + Array("\(place.messageID)/\(place.conversationID):".utf8) + old
    }

    /// One whole pass, batch by batch, as `MessageServices.rebindLegacyTexts` runs it.
    static func pass(_ messages: any MessageStoring, batch: Int) async throws -> (rebound: Int, skipped: Int) {
        var after: Int64 = 0
        var total = (rebound: 0, skipped: 0)
        while true {
            let done = try await messages.rebindSealedTexts(marker: marker, after: after, limit: batch) {
                place, old in
                old.starts(with: marker) ? nil : rebound(place, old)
            }
            total.rebound += done.rebound
            total.skipped += done.skipped
            guard let last = done.lastID else { return total }
            after = last
        }
    }

    @Test(arguments: StoreBackend.all) func twoPassesAtOnceSealEachUnboundTextOnceForItsOwnRow(
        _ backend: StoreBackend
    ) async throws {
        let fixture = try await backend.fixture()
        let (alice, bob) = (try await fixture.user("alice"), try await fixture.user("bob"))
        let messages = fixture.stores.messages
        try await messages.setMessagesFrom(.everyone, of: bob.id)
        var legacy: [StoredMessage] = []
        for index in 0..<7 {
            legacy.append(
                try await messages.send(
                    MessageDraft(
                        destination: .members([bob.id]), seal: { _ in Array("old \(index)".utf8) },
                        senderID: alice.id, idempotencyKey: nil)))
        }
        let bound = try await messages.send(
            MessageDraft(
                destination: .members([bob.id]), seal: { _ in Self.marker + Array("new".utf8) }, senderID: bob.id,
                idempotencyKey: nil))
        try await messages.delete(legacy[3].id, by: alice.id)

        async let first = Self.pass(messages, batch: 2)
        async let second = Self.pass(messages, batch: 3)
        let (one, two) = try await (first, second)
        #expect(one.rebound + two.rebound == 6, "each of the six unbound texts is written once: \(one), \(two)")

        let listed = try await messages.messages(
            in: bound.conversationID, for: bob.id, MessageQuery(limit: 20)
        ).reversed()
        for message in listed {
            let old = legacy.first { $0.id == message.id }
            switch (message.id, old?.sealedText) {
            case (bound.id, _):
                #expect(message.sealedText == Self.marker + Array("new".utf8), "a bound text is left alone")
            case (legacy[3].id, _):
                #expect(message.sealedText == nil, "a deleted message gets no text back")
            case (_, let old?):
                #expect(message.sealedText == Self.rebound(MessagePlace(of: message), old))
            default:
                Issue.record("message \(message.id) was never sent")
            }
        }
        let again = try await Self.pass(messages, batch: 2)
        #expect(again.rebound == 0 && again.skipped == 0, "a second pass finds nothing to do")
    }
}
