import Sodium
import Testing
import TwitterAssembly
import TwitterCore

/// A sealed text opens only in the row it was sealed for (issue #48): its message and conversation are the
/// associated data, so a text moved to another row fails closed; texts sealed before places were bound open
/// only once sealed again for their place.
struct MessageSealerTests {
    static let key = Sodium.shared.randomBytes(count: Sodium.aeadKeyLength)
    static let sealer = SodiumMessageSealer(key: key)
    static let place = MessagePlace(messageID: 7, conversationID: 3)

    @Test func aTextOpensInItsOwnPlace() throws {
        let sealed = Self.sealer.seal("meet at noon", for: Self.place)
        #expect(try Self.sealer.open(sealed, at: Self.place) == "meet at noon")
        #expect(Self.sealer.seal("meet at noon", for: Self.place) != sealed, "a fresh nonce every time")
    }

    @Test(arguments: [
        MessagePlace(messageID: 8, conversationID: 3), MessagePlace(messageID: 7, conversationID: 4),
        MessagePlace(messageID: 3, conversationID: 7),
    ])
    func aTextMovedToAnotherPlaceDoesNotOpen(_ elsewhere: MessagePlace) {
        let sealed = Self.sealer.seal("meet at noon", for: Self.place)
        #expect(throws: TwitterError.self) { try Self.sealer.open(sealed, at: elsewhere) }
        do {
            _ = try Self.sealer.open(sealed, at: elsewhere)
        } catch {
            #expect(error.kind == .internal)
            #expect(error.message.contains("sealed for another message or conversation"))
        }
    }

    @Test func aTextSealedBeforePlacesWereBoundIsRefusedUntilItIsSealedAgainForItsPlace() throws {
        let legacy = Sodium.shared.seal(Array("from before".utf8), key: Self.key)
        do {
            _ = try Self.sealer.open(legacy, at: Self.place)
            Issue.record("an unbound text opened")
        } catch {
            #expect(error.kind == .internal)
            #expect(error.message.contains("not sealed for its row"))
        }
        let rebound = try #require(Self.sealer.rebind(legacy, for: Self.place))
        #expect(rebound.starts(with: Self.sealer.boundMarker))
        #expect(try Self.sealer.open(rebound, at: Self.place) == "from before")
        #expect(throws: TwitterError.self) {
            try Self.sealer.open(rebound, at: MessagePlace(messageID: 8, conversationID: 3))
        }
        #expect(Self.sealer.rebind(rebound, for: Self.place) == nil, "a bound text is not sealed again")
        let otherKey = Sodium.shared.randomBytes(count: Sodium.aeadKeyLength)
        let foreign = Sodium.shared.seal(Array("elsewhere".utf8), key: otherKey)
        #expect(Self.sealer.rebind(foreign, for: Self.place) == nil, "what does not open stays as it is")
    }

    @Test func aBoundTextNeverOpensUnbound() throws {
        // Taking the marker off a bound text leaves what would be an unbound one: its tag still covers the place.
        let bound = Self.sealer.seal("bound", for: Self.place)
        let stripped = Array(bound.dropFirst(4))
        #expect(throws: TwitterError.self) { try Self.sealer.open(stripped, at: Self.place) }
        #expect(Sodium.shared.open(stripped, key: Self.key) == nil)
        #expect(Self.sealer.rebind(stripped, for: Self.place) == nil, "nor is it sealed again")
    }
}
