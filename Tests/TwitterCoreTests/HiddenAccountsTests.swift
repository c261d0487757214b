import Foundation
import Testing
import TwitterCore

/// Who a reader does not see, changed exactly by mute and block events, and what it hides.
struct HiddenAccountsTests {
    static func tweet(_ id: Int64, by author: Int64, inReplyTo parent: Int64? = nil, repostOf: Tweet? = nil) -> Tweet {
        Tweet(
            id: id, author: .init(id: author, username: "u\(author)"), text: "t", createdAt: Date(),
            inReplyToID: parent, repostOf: repostOf)
    }

    @Test func eventsChangeEachSideExactly() {
        var reader = HiddenAccounts()
        var other = HiddenAccounts()
        let events: [RelationEvent] = [
            .muted(muterID: 1, mutedID: 2), .blocked(blockerID: 1, blockedID: 2), .blocked(blockerID: 2, blockedID: 1),
            .unblocked(blockerID: 1, blockedID: 2),
        ]
        for event in events {
            for key in HiddenAccounts.readers(changedBy: event) {
                if key == 1 { reader.apply(event, reader: 1) } else if key == 2 { other.apply(event, reader: 2) }
            }
        }
        #expect(reader == HiddenAccounts(muted: [2], blocking: [], blockedBy: [2]))
        #expect(other == HiddenAccounts(muted: [], blocking: [1], blockedBy: []), "a mute is the muter's alone")
        #expect(reader.all == [2] && reader.blockedBy == [2], "still blocked by the other after its own unblock")
        reader.apply(.unmuted(muterID: 1, mutedID: 2), reader: 1)
        reader.apply(.unblocked(blockerID: 2, blockedID: 1), reader: 1)
        #expect(reader.isEmpty && reader.all.isEmpty)
    }
}
