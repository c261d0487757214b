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
        let events: [TweetEvent] = [
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
        #expect(reader.all == [2] && reader.isBlocked(2), "still blocked by the other after its own unblock")
        reader.apply(.unmuted(muterID: 1, mutedID: 2), reader: 1)
        reader.apply(.unblocked(blockerID: 2, blockedID: 1), reader: 1)
        #expect(reader.isEmpty && reader.all.isEmpty)
    }

    @Test func hidesTweetsAndRepostsOfHiddenAccounts() {
        let hidden = HiddenAccounts(muted: [2])
        #expect(hidden.hides(Self.tweet(1, by: 2)))
        #expect(hidden.hides(Self.tweet(3, by: 4, repostOf: Self.tweet(1, by: 2))), "a repost of a muted account")
        #expect(!hidden.hides(Self.tweet(3, by: 4)))
        #expect(!hidden.isBlocked(2), "a mute is no block")
    }

    @Test func threadsHideBlockedRootsAndMaskHiddenReplies() {
        let rows = ThreadRows(
            ancestors: [.tweet(Self.tweet(1, by: 2))], tweet: Self.tweet(5, by: 3, inReplyTo: 1),
            descendants: [.tweet(Self.tweet(6, by: 4, inReplyTo: 5)), .tweet(Self.tweet(7, by: 3, inReplyTo: 6))])
        #expect(HiddenAccounts().shown(rows) == rows)
        #expect(HiddenAccounts(blockedBy: [3]).shown(rows) == nil, "the root's author blocks the reader")
        #expect(HiddenAccounts(muted: [3]).shown(rows) != nil, "a muted account's tweet asked for by id is shown")
        let shown = HiddenAccounts(blocking: [2, 4]).shown(rows)
        #expect(shown?.ancestors == [.deleted(id: 1, inReplyToID: nil)])
        #expect(shown?.descendants.map(\.id) == [6, 7], "the hidden reply keeps its place for the reply beneath")
        #expect(shown?.descendants.first == .deleted(id: 6, inReplyToID: 5))
    }
}
