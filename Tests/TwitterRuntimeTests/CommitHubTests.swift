import Foundation
import Testing
import TwitterCore
import TwitterRuntime

struct CommitHubTests {
    static let moment = Date(timeIntervalSince1970: 1_800_000_000)

    static func tweet(_ id: Int64, author: Int64 = 1) -> Tweet {
        Tweet(id: id, author: .init(id: author, username: "u\(author)"), text: "t\(id)", createdAt: moment)
    }

    @Test func deliversInPublishOrderAndFiltersByAuthor() async {
        let hub = CommitHub()
        let all = hub.subscribe(.everyone)
        let onlyTwo = hub.subscribe(.author(2))
        hub.publish([.tweet(.posted(Self.tweet(1))), .tweet(.posted(Self.tweet(2, author: 2)))])
        hub.publish([.tweet(.deleted(id: 1, authorID: 1, repostOf: nil))])
        #expect(await all.next() == .event(.tweet(.posted(Self.tweet(1)))))
        #expect(await all.next() == .event(.tweet(.posted(Self.tweet(2, author: 2)))))
        #expect(await all.next() == .event(.tweet(.deleted(id: 1, authorID: 1, repostOf: nil))))
        #expect(await onlyTwo.next() == .event(.tweet(.posted(Self.tweet(2, author: 2)))))
        all.cancel()
        #expect(await all.next() == nil)
        #expect(hub.subscriptionCount == 1)
    }

    static func sent(_ id: Int64, from sender: Int64, to recipients: [Int64]) -> CommitEvent {
        .message(
            .sent(
                StoredMessage(
                    id: id, conversationID: 1, sender: AccountName(id: sender, username: "u\(sender)"),
                    sealedText: [1], createdAt: moment),
                recipientIDs: recipients))
    }

    /// The one hub carries messages too: a message stream hears only the sends that reach its account, in commit
    /// order among the other events, and no timeline stream hears a send.
    @Test func aMessageStreamHearsOnlyTheSendsThatReachItsAccount() async {
        let hub = CommitHub()
        let bobs = hub.subscribeToMessages(of: 2)
        let carols = hub.subscribeToMessages(of: 3)
        let everyone = hub.subscribe(.everyone)
        hub.publish([Self.sent(10, from: 1, to: [1, 2]), .tweet(.posted(Self.tweet(1)))])
        hub.publish([Self.sent(11, from: 3, to: [3, 2]), Self.sent(12, from: 1, to: [1, 3])])
        #expect(await bobs.next() == .event(Self.sent(10, from: 1, to: [1, 2])))
        #expect(await bobs.next() == .event(Self.sent(11, from: 3, to: [3, 2])))
        #expect(await carols.next() == .event(Self.sent(11, from: 3, to: [3, 2])))
        #expect(await carols.next() == .event(Self.sent(12, from: 1, to: [1, 3])))
        hub.publish([.tweet(.posted(Self.tweet(2)))])
        #expect(await everyone.next() == .event(.tweet(.posted(Self.tweet(1)))))
        #expect(await everyone.next() == .event(.tweet(.posted(Self.tweet(2)))), "the timeline stream heard no send")
        for subscription in [bobs, carols, everyone] { subscription.cancel() }
        #expect(hub.subscriptionCount == 0)
    }

    @Test func aSubscriberTooFarBehindGetsOneLagAndIsDropped() async {
        let hub = CommitHub()
        let slow = hub.subscribe(.everyone, capacity: 10)
        hub.publish((1...11).map { .tweet(.posted(Self.tweet($0))) })
        #expect(await slow.next() == .lagged)
        #expect(await slow.next() == nil)
        #expect(hub.subscriptionCount == 0)
        hub.publish([.tweet(.posted(Self.tweet(12)))])
        #expect(await slow.next() == nil)
    }

    @Test func aWaitingSubscriberIsWokenByPublish() async {
        let hub = CommitHub()
        let subscription = hub.subscribe(.everyone)
        async let delivery = subscription.next()
        hub.publish([.tweet(.posted(Self.tweet(7)))])
        #expect(await delivery == .event(.tweet(.posted(Self.tweet(7)))))
    }

    @Test func aHomeStreamFollowsTheFollowGraphInCommitOrder() async {
        let hub = CommitHub()
        let home = hub.subscribe(.home(1))
        // Committed before the follow set was read: kept, then filtered once it is known.
        hub.publish([.tweet(.posted(Self.tweet(1, author: 2))), .tweet(.posted(Self.tweet(2, author: 3)))])
        home.resolve(following: [2])
        hub.publish([.tweet(.posted(Self.tweet(3, author: 1))), .relation(.followed(followerID: 1, followeeID: 3))])
        hub.publish([.tweet(.posted(Self.tweet(4, author: 3))), .relation(.unfollowed(followerID: 1, followeeID: 2))])
        hub.publish([.tweet(.posted(Self.tweet(5, author: 2))), .relation(.followed(followerID: 9, followeeID: 2))])
        hub.publish([.tweet(.posted(Self.tweet(6, author: 2))), .tweet(.posted(Self.tweet(7, author: 4)))])
        hub.publish([.tweet(.posted(Self.tweet(8, author: 1)))])
        var delivered: [Int64] = []
        while delivered.last != 8, case .event(.tweet(.posted(let tweet)))? = await home.next() {
            delivered.append(tweet.id)
        }
        #expect(delivered == [1, 3, 4, 8], "own tweets, and followed accounts' only while followed")
    }

    @Test func aHomeStreamWaitingForItsFollowSetLagsLikeAnyOther() async {
        let hub = CommitHub()
        let home = hub.subscribe(.home(1), capacity: 3)
        hub.publish((1...4).map { .tweet(.posted(Self.tweet($0, author: 5))) })
        home.resolve(following: [])
        #expect(await home.next() == .lagged)
    }

    @Test func filtersAdmitOnlyTheirTimeline() {
        var everyone = TimelineFilter(.everyone)
        var author = TimelineFilter(.author(2))
        let posted = CommitEvent.tweet(.posted(Self.tweet(1, author: 2)))
        let admitted = [
            everyone.admits(posted), author.admits(posted), author.admits(.tweet(.posted(Self.tweet(2, author: 3)))),
            everyone.admits(.tweet(.liked(id: 1, userID: 2))),
            everyone.admits(.tweet(.counted(id: 1, TweetCounts(likes: 1)))),
        ]
        #expect(admitted == [true, true, false, false, false], "likes and counts are not stream events")
    }
}

extension CommitHubTests {
    @Test func aNotificationStreamCarriesOnlyItsRecipientsNotifications() async {
        let hub = CommitHub()
        let stream = hub.subscribeToNotifications(of: 1)
        func notified(_ id: Int64, to recipient: Int64) -> CommitEvent {
            .account(
                .notified(
                    ActivityNotification(
                        id: id, type: .follow, createdAt: Self.moment, from: .init(username: "x"), tweet: nil),
                    recipientID: recipient))
        }
        hub.publish([
            .tweet(.posted(Self.tweet(1))), notified(1, to: 2), notified(2, to: 1),
            .relation(.followed(followerID: 3, followeeID: 1)),
        ])
        #expect(await stream.next() == .event(notified(2, to: 1)))
        stream.cancel()
        #expect(await stream.next() == nil)
    }
}
