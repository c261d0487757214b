import Foundation
import Testing
import TwitterCore

/// The one visibility policy: by id, a block either way hides a tweet and a repost of it; in lists, a mute too.
struct TweetVisibilityTests {
    static func tweet(_ id: Int64, by author: Int64, inReplyTo parent: Int64? = nil, repostOf: Tweet? = nil) -> Tweet {
        HiddenAccountsTests.tweet(id, by: author, inReplyTo: parent, repostOf: repostOf)
    }

    @Test func listsLeaveOutTweetsAndRepostsOfHiddenAccounts() {
        let visibility = TweetVisibility(HiddenAccounts(muted: [2]))
        #expect(!visibility.lists(Self.tweet(1, by: 2)))
        #expect(!visibility.lists(Self.tweet(3, by: 4, repostOf: Self.tweet(1, by: 2))), "a repost of a muted account")
        #expect(visibility.lists(Self.tweet(3, by: 4)))
        #expect(visibility.listed([Self.tweet(1, by: 2), Self.tweet(3, by: 4)]).map(\.id) == [3])
        #expect(!visibility.isBlocked(2), "a mute is no block")
        #expect(visibility.allowsAccess(to: Self.tweet(1, by: 2)), "a muted account's tweet asked for by id")
    }

    @Test(arguments: [HiddenAccounts(blocking: [2]), HiddenAccounts(blockedBy: [2])])
    func aBlockEitherWayHidesTheTweetAndEveryRepostOfItByID(_ hidden: HiddenAccounts) throws {
        let visibility = TweetVisibility(hidden)
        let original = Self.tweet(1, by: 2)
        let repost = Self.tweet(3, by: 4, repostOf: original)
        #expect(!visibility.allowsAccess(to: original))
        #expect(!visibility.allowsAccess(to: repost), "the original's author decides for the repost")
        #expect(throws: TwitterError.notFound("Tweet 3")) { try visibility.accessible(repost, id: 3) }
        #expect(throws: TwitterError.notFound("Tweet 3")) { try visibility.accessible(nil, id: 3) }
        #expect(throws: TwitterError.notFound("Tweet 3")) {
            try visibility.requireAccess(toTweet: 3, author: 4, originalAuthor: 2)
        }
        #expect(try visibility.accessible(Self.tweet(5, by: 4), id: 5).id == 5)
        #expect(!visibility.allowsAccess(to: Self.tweet(6, by: 2, repostOf: Self.tweet(5, by: 4))), "its own repost")
    }

    @Test func theFactsOfOnePairAreTheBlockBetweenThem() {
        #expect(TweetVisibility.between(1, and: 2, blocker: nil) == TweetVisibility())
        #expect(TweetVisibility.between(1, and: 2, blocker: 1).hidden == HiddenAccounts(blocking: [2]))
        #expect(TweetVisibility.between(1, and: 2, blocker: 2).hidden == HiddenAccounts(blockedBy: [2]))
    }

    @Test func anArchivedRepostOfAnUnseeableOriginalKeepsItsPlaceWithoutIt() throws {
        let repost = Self.tweet(3, by: 4, repostOf: Self.tweet(1, by: 2))
        #expect(TweetVisibility(HiddenAccounts(muted: [2])).archived(repost) == ArchivedTweet(repost), "a mute")
        let archived = TweetVisibility(HiddenAccounts(blockedBy: [2])).archived(repost)
        #expect(archived.unavailableOriginalID == 1 && archived.repostOf == nil && archived.id == 3)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = try encoder.encode(archived)
        #expect(String(decoding: json, as: UTF8.self).contains(#""repostOf":{"id":1,"unavailable":true}"#))
        #expect(try JSONDecoder().decode(ArchivedTweet.self, from: json) == archived)
        let plain = ArchivedTweet(repost)
        #expect(try JSONDecoder().decode(ArchivedTweet.self, from: try JSONEncoder().encode(plain)) == plain)
    }

    @Test func threadsHideBlockedRootsAndMaskHiddenReplies() {
        let rows = ThreadRows(
            ancestors: [.tweet(Self.tweet(1, by: 2))], tweet: Self.tweet(5, by: 3, inReplyTo: 1),
            descendants: [.tweet(Self.tweet(6, by: 4, inReplyTo: 5)), .tweet(Self.tweet(7, by: 3, inReplyTo: 6))])
        #expect(TweetVisibility().thread(rows) == rows)
        #expect(TweetVisibility(HiddenAccounts(blockedBy: [3])).thread(rows) == nil, "the root's author blocks")
        #expect(TweetVisibility(HiddenAccounts(muted: [3])).thread(rows) != nil, "a muted account's tweet by id")
        let shown = TweetVisibility(HiddenAccounts(blocking: [2, 4])).thread(rows)
        #expect(shown?.ancestors == [.deleted(id: 1, inReplyToID: nil)])
        #expect(shown?.descendants.map(\.id) == [6, 7], "the hidden reply keeps its place for the reply beneath")
        #expect(shown?.descendants.first == .deleted(id: 6, inReplyToID: 5))
    }

    @Test(arguments: [HiddenAccounts(muted: [2]), HiddenAccounts(blocking: [2]), HiddenAccounts(blockedBy: [2])])
    func notificationsAndDeletionsFromAHiddenAccountDoNotReachTheReaderButReportsDo(_ hidden: HiddenAccounts) {
        let visibility = TweetVisibility(hidden)
        func notification(_ type: ActivityNotification.Kind, from actor: Int64) -> ActivityNotification {
            ActivityNotification(
                id: actor, type: type, createdAt: Date(timeIntervalSince1970: 0),
                from: .init(id: actor, username: "user\(actor)"), tweet: nil)
        }
        #expect(visibility.hides(2) && !visibility.hides(3))
        #expect(!visibility.shows(notification(.like, from: 2)) && !visibility.shows(notification(.follow, from: 2)))
        #expect(visibility.shows(notification(.adminReport, from: 2)), "moderation sees what a blocker reports")
        #expect(visibility.shown([notification(.mention, from: 2), notification(.mention, from: 3)]).map(\.id) == [3])
        #expect(!visibility.listsDeletion(by: 2) && visibility.listsDeletion(by: 3))
    }

    @Test func aListIsKnownToItsOwnerAndAcrossNoBlockWhilePublic() {
        let muting = TweetVisibility(HiddenAccounts(muted: [2]))
        #expect(muting.allowsList(ownedBy: 2, isPrivate: false, reader: 1), "a mute does not hide a list")
        #expect(!muting.allowsList(ownedBy: 2, isPrivate: true, reader: 1))
        #expect(muting.allowsList(ownedBy: 1, isPrivate: true, reader: 1), "its owner's own")
        for hidden in [HiddenAccounts(blocking: [2]), HiddenAccounts(blockedBy: [2])] {
            #expect(!TweetVisibility(hidden).allowsList(ownedBy: 2, isPrivate: false, reader: 1))
        }
    }
}
